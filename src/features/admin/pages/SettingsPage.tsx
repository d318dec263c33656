import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useAdminGetConfigsQuery } from '../api';
import { AccountPolicySection } from '../components/settings/AccountPolicySection';
import { ContainerPolicySection } from '../components/settings/ContainerPolicySection';
import { GlobalConfigSection } from '../components/settings/GlobalConfigSection';
import { LogoSection } from '../components/settings/LogoSection';

/**
 * Platform settings, one card per section, each saved on its own (PUT /api/admin/config with only
 * that section). A saved section comes back from the server and its form starts again from there.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useAdminGetConfigsQuery(undefined, { refetchOnMountOrArgChange: true });

  let body;
  if (isLoading) body = <PageSpinner />;
  else if (isError || !data)
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()}>
            {t('admin:action.retry')}
          </Button>
        }
      >
        {t('admin:settings.loadFailed')}
      </Alert>
    );
  else
    body = (
      <>
        {data.globalConfig && (
          // A new logo leaves the form's unsaved edits alone.
          <GlobalConfigSection
            key={JSON.stringify({ ...data.globalConfig, logoHash: null, faviconHash: null })}
            config={data.globalConfig}
          />
        )}
        <LogoSection logoHash={data.globalConfig?.logoHash} />
        {data.accountPolicy && (
          <AccountPolicySection key={JSON.stringify(data.accountPolicy)} policy={data.accountPolicy} />
        )}
        {data.containerPolicy && (
          <ContainerPolicySection key={JSON.stringify(data.containerPolicy)} policy={data.containerPolicy} />
        )}
      </>
    );

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h2">
        {t('admin:section.settings')}
      </Typography>
      {body}
    </Stack>
  );
}
