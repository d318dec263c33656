import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHexColor } from '@/shared/lib/color';
import Markdown from '@/shared/ui/Markdown';
import { useAdminUpdateConfigsMutation, type GlobalConfig } from '../../api';
import { SettingsSection } from './SettingsSection';
import { SwitchRow } from './SwitchRow';

interface Form {
  title: string;
  slogan: string;
  description: string;
  footerInfo: string;
  customTheme: string;
  apiEncryption: boolean;
}

const formOf = (config: GlobalConfig): Form => ({
  title: config.title,
  slogan: config.slogan,
  description: config.description ?? '',
  footerInfo: config.footerInfo ?? '',
  customTheme: config.customTheme ?? '',
  apiEncryption: config.apiEncryption,
});

/** Encryption happens in the browser (X25519 + AES-GCM), which needs WebCrypto. */
const webCryptoAvailable = () => typeof globalThis.crypto?.subtle !== 'undefined';

export interface GlobalProblems {
  title?: string;
  customTheme?: string;
  apiEncryption?: string;
}

/** The platform's title is required; a theme colour must be empty (none) or `#RRGGBB` (spec §5). */
export function validateGlobal(form: Form): GlobalProblems {
  const problems: GlobalProblems = {};
  if (form.title.trim() === '') problems.title = 'admin:settings.error.titleRequired';
  if (form.customTheme.trim() !== '' && !isHexColor(form.customTheme.trim()))
    problems.customTheme = 'admin:settings.error.color';
  if (form.apiEncryption && !webCryptoAvailable()) problems.apiEncryption = 'admin:settings.error.webCrypto';
  return problems;
}

/** Title, slogan, description, footer (markdown, previewed sanitised), theme colour, API encryption. */
export function GlobalConfigSection({ config }: { config: GlobalConfig }) {
  const { t } = useTranslation();
  const initial = formOf(config);
  const previewId = useId();
  const [form, setForm] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [update, { isLoading }] = useAdminUpdateConfigsMutation();
  const problems = validateGlobal(form);
  const shown = submitted ? problems : { customTheme: form.customTheme && problems.customTheme };
  const pristine = JSON.stringify(form) === JSON.stringify(initial);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((previous) => ({ ...previous, [key]: value }));

  function save() {
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    const color = form.customTheme.trim();
    void update({
      configEditModel: {
        globalConfig: {
          title: form.title.trim(),
          slogan: form.slogan.trim(),
          description: form.description.trim() || null,
          footerInfo: form.footerInfo.trim() ? form.footerInfo : null,
          customTheme: color ? color.toLowerCase() : null,
          apiEncryption: form.apiEncryption,
        },
      },
    }).catch(() => undefined);
  }

  const color = form.customTheme.trim();
  return (
    <SettingsSection
      title={t('admin:settings.global.title')}
      description={t('admin:settings.global.description')}
      onSave={save}
      saving={isLoading}
      pristine={pristine}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            fullWidth
            required
            label={t('admin:settings.global.platformTitle')}
            value={form.title}
            onChange={(event) => set('title', event.target.value)}
            error={Boolean(shown.title)}
            helperText={
              shown.title ? t(shown.title) : t('admin:settings.global.platformTitleHint', { title: form.title || 'GZ' })
            }
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            fullWidth
            label={t('admin:settings.global.slogan')}
            value={form.slogan}
            onChange={(event) => set('slogan', event.target.value)}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            fullWidth
            label={t('admin:settings.global.metaDescription')}
            helperText={t('admin:settings.global.metaDescriptionHint')}
            value={form.description}
            onChange={(event) => set('description', event.target.value)}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            fullWidth
            multiline
            minRows={5}
            label={t('admin:settings.global.footer')}
            helperText={t('admin:settings.global.footerHint')}
            value={form.footerInfo}
            onChange={(event) => set('footerInfo', event.target.value)}
            slotProps={{ htmlInput: { sx: { fontFamily: 'monospace', fontSize: 14 } } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }} id={previewId}>
            {t('admin:settings.global.preview')}
          </Typography>
          <Paper
            variant="outlined"
            aria-labelledby={previewId}
            role="region"
            data-testid="footer-preview"
            sx={{ p: 1.5, minHeight: 120, color: 'text.secondary', fontSize: 14, bgcolor: 'background.default' }}
          >
            {form.footerInfo.trim() ? (
              <Markdown source={form.footerInfo} />
            ) : (
              <Typography variant="body2" color="text.disabled">
                {t('admin:settings.global.previewEmpty')}
              </Typography>
            )}
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            fullWidth
            label={t('admin:settings.global.themeColor')}
            placeholder="#0fbf9f"
            value={form.customTheme}
            onChange={(event) => set('customTheme', event.target.value)}
            error={Boolean(shown.customTheme)}
            helperText={shown.customTheme ? t(shown.customTheme) : t('admin:settings.global.themeColorHint')}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Box
                      component="input"
                      type="color"
                      aria-label={t('admin:settings.global.pickColor')}
                      value={isHexColor(color) ? color.toLowerCase() : '#0fbf9f'}
                      onChange={(event) => set('customTheme', event.target.value)}
                      sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
                    />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <SwitchRow
            label={t('admin:settings.global.apiEncryption')}
            description={shown.apiEncryption ? t(shown.apiEncryption) : t('admin:settings.global.apiEncryptionHint')}
            checked={form.apiEncryption}
            onChange={(checked) => set('apiEncryption', checked)}
          />
        </Grid>
      </Grid>
    </SettingsSection>
  );
}
