import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** Stands in for a page whose issue has not landed yet; the route itself is already registered. */
export default function ComingSoonPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 10 }}>
      <Typography variant="h4" component="h1">
        {t('common:comingSoon.title')}
      </Typography>
      <Typography color="text.secondary">{t('common:comingSoon.message')}</Typography>
      <Button component={RouterLink} to="/" variant="outlined">
        {t('common:notFound.home')}
      </Button>
    </Stack>
  );
}
