import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * The not-found page (spec §2): the app's catch-all, and the pages whose route matched but whose id
 * cannot name anything (`/admin/games/abc`), which show the same words with their own way back.
 */
export function NotFound({
  back = { to: '/', label: 'common:notFound.home' },
}: {
  back?: { to: string; label: string };
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 10 }}>
      <Typography variant="h1" component="p" sx={{ fontWeight: 700, opacity: 0.4 }}>
        404
      </Typography>
      <Typography variant="h4" component="h1">
        {t('common:notFound.title')}
      </Typography>
      <Typography color="text.secondary">{t('common:notFound.message')}</Typography>
      <Button component={RouterLink} to={back.to} variant="contained">
        {t(back.label)}
      </Button>
    </Stack>
  );
}
