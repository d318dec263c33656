import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/shared/lib/fileSize';
import { isAcceptedImage } from '@/shared/lib/images';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { ImageFileButton } from '@/shared/ui/ImageFileButton';
import { logoUploadBody, useAdminResetLogoMutation, useAdminUpdateLogoMutation } from '../../api';
import { SettingsSection } from './SettingsSection';

/** The server takes images of at most 3 MiB (reference §2.2). */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;

/** Checks a chosen image before it is sent: type and size; the i18n key of the problem, if any. */
export function imageProblem(file: File): string | undefined {
  if (!isAcceptedImage(file)) return 'admin:settings.logo.error.type';
  if (file.size > MAX_IMAGE_BYTES) return 'admin:settings.logo.error.size';
  return undefined;
}

/** The platform logo (and the favicon made from it): upload a new one or go back to the default. */
export function LogoSection({ logoHash }: { logoHash: string | null | undefined }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [problem, setProblem] = useState<string>();
  const [upload, { isLoading: uploading }] = useAdminUpdateLogoMutation();
  const [reset, { isLoading: resetting }] = useAdminResetLogoMutation();
  const logoUrl = logoHash ? `/assets/${logoHash}/logo` : null;

  function choose(file: File | undefined) {
    if (!file) return;
    const found = imageProblem(file);
    setProblem(found);
    if (!found) void upload({ body: logoUploadBody(file) }).catch(() => undefined);
  }

  async function resetLogo() {
    const confirmed = await confirm({
      title: t('admin:settings.logo.resetConfirm.title'),
      message: t('admin:settings.logo.resetConfirm.message'),
      confirmLabel: t('admin:settings.logo.reset'),
      destructive: true,
    });
    if (confirmed) await reset().catch(() => undefined);
  }

  return (
    <SettingsSection title={t('admin:settings.logo.title')} description={t('admin:settings.logo.description')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
        <Box
          sx={{
            width: 160,
            height: 96,
            borderRadius: 2,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'background.default',
            display: 'grid',
            placeItems: 'center',
            overflow: 'hidden',
            flexShrink: 0,
          }}
        >
          {logoUrl ? (
            <Box
              component="img"
              src={logoUrl}
              alt={t('admin:settings.logo.current')}
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('admin:settings.logo.none')}
            </Typography>
          )}
        </Box>
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            <ImageFileButton
              variant="contained"
              startIcon={<UploadOutlined />}
              loading={uploading}
              inputTestId="logo-input"
              onFile={choose}
            >
              {t('admin:settings.logo.upload')}
            </ImageFileButton>
            <Button
              variant="outlined"
              color="warning"
              startIcon={<RestartAltOutlined />}
              loading={resetting}
              disabled={!logoHash}
              onClick={() => void resetLogo()}
            >
              {t('admin:settings.logo.reset')}
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('admin:settings.logo.hint', { size: formatFileSize(MAX_IMAGE_BYTES) })}
          </Typography>
          {problem && (
            <Alert severity="error" onClose={() => setProblem(undefined)}>
              {t(problem, { size: formatFileSize(MAX_IMAGE_BYTES) })}
            </Alert>
          )}
        </Stack>
      </Stack>
    </SettingsSection>
  );
}
