import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * The not-found page (spec §2) for an admin game path whose id cannot name a game (`/admin/games/abc`).
 * The route matches, so the app's catch-all does not; this shows what it would, in the same words.
 */
export function PageNotFound() {
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
      <Button component={RouterLink} to="/admin/games" variant="contained">
        {t('edit:frame.back')}
      </Button>
    </Stack>
  );
}
