import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useWsrxDispatch, useWsrxSelector } from '../hooks';
import { DEFAULT_DAEMON_API, normalizeDaemonApi, optionsChanged, selectWsrxOptions } from '../slice';

interface Props {
  onClose: () => void;
}

/**
 * Where the daemon listens and whether mappings may be reached from the LAN (spec §3). Mounted while
 * open, so each opening starts from the saved options rather than abandoned edits.
 */
export function WsrxSettingsDialog({ onClose }: Props) {
  const { t } = useTranslation();
  const dispatch = useWsrxDispatch();
  const saved = useWsrxSelector(selectWsrxOptions);
  const [api, setApi] = useState(saved.api);
  const [allowLan, setAllowLan] = useState(saved.allowLan);
  const [showError, setShowError] = useState(false);
  const titleId = useId();
  const lanHelpId = useId();

  const apiValid = normalizeDaemonApi(api) !== null;
  const apiError = showError && !apiValid;

  function save(event: FormEvent) {
    event.preventDefault();
    if (!apiValid) {
      setShowError(true);
      return;
    }
    dispatch(optionsChanged({ api, allowLan }));
    onClose();
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={save} noValidate>
        <DialogTitle id={titleId}>{t('wsrx:settings.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              autoFocus
              label={t('wsrx:settings.api')}
              value={api}
              onChange={(event) => setApi(event.target.value)}
              onBlur={() => setShowError(api.trim() !== '' && !apiValid)}
              error={apiError}
              helperText={apiError ? t('wsrx:settings.apiInvalid') : t('wsrx:settings.apiHint')}
              placeholder={DEFAULT_DAEMON_API}
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off', inputMode: 'url' } }}
            />
            <Box>
              <FormControlLabel
                control={
                  <Switch
                    checked={allowLan}
                    onChange={(event) => setAllowLan(event.target.checked)}
                    slotProps={{ input: { 'aria-describedby': lanHelpId } }}
                  />
                }
                label={t('wsrx:settings.allowLan')}
              />
              <FormHelperText id={lanHelpId}>{t('wsrx:settings.allowLanHint')}</FormHelperText>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained">
            {t('wsrx:settings.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
