import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '@/features/info/api';
import { APP_NAME, APP_VERSION, GZCTF_COMPATIBLE_VERSION } from '@/shared/appInfo';

/** About: what the platform is, its version and the GZCTF release it is compatible with. */
export default function AboutPage() {
  const { t } = useTranslation();
  const { config } = useClientConfig();
  return (
    <Stack spacing={3} sx={{ py: { xs: 2, md: 4 }, maxWidth: 720 }}>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 700 }}>
        {t('common:about.title')}
      </Typography>
      <Typography color="text.secondary">
        {t('common:about.runsOn', { title: config.title, name: APP_NAME })}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={1.5}>
          <Typography variant="h5" component="h2">
            {APP_NAME}
          </Typography>
          <Typography>{t('common:about.description')}</Typography>
          <Typography component="p" variant="body2" color="text.secondary" data-testid="app-version">
            {t('common:about.version', { version: APP_VERSION })}
          </Typography>
          <Typography component="p" variant="body2" color="text.secondary">
            {t('common:about.compatibility', { version: GZCTF_COMPATIBLE_VERSION })}
          </Typography>
        </Stack>
      </Paper>
    </Stack>
  );
}
