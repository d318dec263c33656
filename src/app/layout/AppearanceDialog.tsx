import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectClientConfig } from '@/features/info/api';
import { isHexColor } from '@/shared/lib/color';
import {
  customColorChosen,
  selectCustomColor,
  selectThemeProvider,
  THEME_PROVIDERS,
  themeProviderChosen,
  type ThemeProviderName,
} from '@/shared/preferences/slice';
import { resolvePrimaryPalette } from '@/shared/theme/primaryPalette';
import { useAppDispatch, useAppSelector } from '../hooks';

const PROVIDER_LABELS: Record<ThemeProviderName, string> = {
  Managed: 'common:appearance.managed',
  Default: 'common:appearance.default',
  Custom: 'common:appearance.custom',
};

interface Props {
  open: boolean;
  onClose: () => void;
}

/**
 * Theme provider and custom colour (spec §4, §5). A custom colour must be `#RRGGBB`; an invalid one
 * is not saved and the field says why.
 */
export default function AppearanceDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const savedProvider = useAppSelector(selectThemeProvider);
  const savedColor = useAppSelector(selectCustomColor);
  const managedColor = useAppSelector((state) => selectClientConfig(state).customTheme);
  const [provider, setProvider] = useState(savedProvider);
  const [color, setColor] = useState(savedColor ?? '');
  const [showError, setShowError] = useState(false);
  const titleId = useId();
  const providerLabelId = useId();

  const colorValid = isHexColor(color.trim());
  const preview = resolvePrimaryPalette({
    provider,
    customColor: colorValid ? color.trim() : null,
    managedColor,
  });

  function reset() {
    setProvider(savedProvider);
    setColor(savedColor ?? '');
    setShowError(false);
  }

  function close() {
    onClose();
    reset();
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (provider === 'Custom' && !colorValid) {
      setShowError(true);
      return;
    }
    if (provider === 'Custom') dispatch(customColorChosen(color.trim()));
    dispatch(themeProviderChosen(provider));
    onClose();
    setShowError(false);
  }

  const colorError = showError && !colorValid;
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={save} noValidate>
        <DialogTitle id={titleId}>{t('common:appearance.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <FormControl>
              <FormLabel id={providerLabelId}>{t('common:appearance.provider')}</FormLabel>
              <RadioGroup
                aria-labelledby={providerLabelId}
                value={provider}
                onChange={(event) => setProvider(event.target.value as ThemeProviderName)}
              >
                {THEME_PROVIDERS.map((name) => (
                  <FormControlLabel
                    key={name}
                    value={name}
                    control={<Radio autoFocus={name === provider} />}
                    label={t(PROVIDER_LABELS[name])}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            {provider === 'Custom' && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  label={t('common:appearance.customColor')}
                  value={color}
                  onChange={(event) => setColor(event.target.value)}
                  onBlur={() => setShowError(color.trim() !== '' && !colorValid)}
                  error={colorError}
                  helperText={colorError ? t('common:appearance.invalidColor') : t('common:appearance.colorHint')}
                  placeholder="#3f8cff"
                  fullWidth
                  slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off', maxLength: 7 } }}
                />
                <Box
                  component="input"
                  type="color"
                  aria-label={t('common:appearance.pickColor')}
                  value={colorValid ? color.trim().toLowerCase() : '#3f8cff'}
                  onChange={(event: ChangeEvent<HTMLInputElement>) => {
                    setColor(event.target.value);
                    setShowError(false);
                  }}
                  sx={{
                    width: 56,
                    height: 56,
                    p: 0.5,
                    border: 1,
                    borderColor: 'divider',
                    borderRadius: 1,
                    bgcolor: 'transparent',
                  }}
                />
              </Stack>
            )}
            <Box
              aria-hidden
              sx={{ display: 'flex', borderRadius: 1, overflow: 'hidden' }}
              data-testid="palette-preview"
            >
              {preview.map((shade, index) => (
                <Box key={index} sx={{ flex: 1, height: 24, bgcolor: shade }} />
              ))}
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained">
            {t('common:appearance.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
