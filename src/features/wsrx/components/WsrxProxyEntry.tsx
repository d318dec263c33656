import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProxyEntryProps } from '@/shared/instances/ProxyEntrySlot';
import { CopyField } from '@/shared/ui/CopyField';
import { useWsrxDispatch, useWsrxSelector } from '../hooks';
import {
  connectRequested,
  mappingRequested,
  selectDaemonState,
  selectInstanceByRemote,
  selectMappingStatus,
  selectWsrxConnecting,
  selectWsrxError,
  type DaemonState,
} from '../slice';
import { WsrxSettingsDialog } from './WsrxSettingsDialog';

export const WSRX_RELEASES_URL = 'https://github.com/XDSEC/WebSocketReflectorX/releases';

const STATUS_COLOR: Record<DaemonState, 'default' | 'warning' | 'success'> = {
  Invalid: 'default',
  Pending: 'warning',
  Usable: 'success',
};

/**
 * A proxied instance's entry (fills `ProxyEntrySlot`). While the wsrx daemon is usable the entry is
 * mapped to a local port and that address is shown (the WebSocket URL one switch away); while the
 * daemon waits for approval it says so; otherwise it shows the WebSocket URL, what wsrx is and where
 * to get it, and a way to connect. The state machine itself runs in the listeners.
 */
function WsrxProxyEntry({ remote, label }: ProxyEntryProps) {
  const { t } = useTranslation();
  const dispatch = useWsrxDispatch();
  const daemon = useWsrxSelector(selectDaemonState);
  const connecting = useWsrxSelector(selectWsrxConnecting);
  const error = useWsrxSelector(selectWsrxError);
  const instance = useWsrxSelector((state) => selectInstanceByRemote(state, remote));
  const mapping = useWsrxSelector((state) => selectMappingStatus(state, remote));
  const [showRemote, setShowRemote] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const usable = daemon === 'Usable';
  const mapped = instance !== undefined;
  // Ask for the mapping whenever the daemon is usable and it is missing (first view, or the daemon
  // dropped it); after a failure only the retry button asks again, so a broken daemon is not hammered.
  useEffect(() => {
    if (usable && !mapped && mapping === undefined) dispatch(mappingRequested({ remote, label }));
  }, [usable, mapped, mapping, remote, label, dispatch]);

  const showLocal = usable && instance !== undefined && !showRemote;
  const status = connecting ? t('wsrx:status.connecting') : t(`wsrx:status.${daemon}`);

  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Chip size="small" variant="outlined" color={STATUS_COLOR[daemon]} label={t('wsrx:status.label', { status })} />
        <Box sx={{ flex: 1 }} />
        <Tooltip title={t('wsrx:settings.open')}>
          <IconButton
            size="small"
            aria-label={t('wsrx:settings.open')}
            aria-haspopup="dialog"
            onClick={() => setSettingsOpen(true)}
          >
            <SettingsOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>

      {/* Keyed: switching addresses must not carry the copy button's "Copied" over to the other one. */}
      {showLocal ? (
        <CopyField
          key="local"
          label={t('wsrx:entry.local')}
          value={instance.local}
          copyLabel={t('wsrx:entry.copyLocal')}
        />
      ) : (
        <CopyField key="remote" label={t('wsrx:entry.remote')} value={remote} copyLabel={t('wsrx:entry.copyRemote')} />
      )}

      {usable && mapped && (
        <FormControlLabel
          control={
            <Switch size="small" checked={showRemote} onChange={(event) => setShowRemote(event.target.checked)} />
          }
          label={t('wsrx:entry.showRemote')}
        />
      )}

      {usable && !mapped && mapping !== 'failed' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={16} aria-hidden />
          <Typography variant="body2">{t('wsrx:entry.mapping')}</Typography>
        </Stack>
      )}

      {usable && !mapped && mapping === 'failed' && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => dispatch(mappingRequested({ remote, label }))}>
              {t('wsrx:entry.retryMapping')}
            </Button>
          }
        >
          {t('wsrx:entry.mappingFailed')}
        </Alert>
      )}

      {daemon === 'Pending' && <Alert severity="info">{t('wsrx:entry.approve')}</Alert>}

      {daemon === 'Invalid' && (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('wsrx:entry.about')}
          </Typography>
          {error === 'daemon_version_mismatch' && <Alert severity="warning">{t('wsrx:entry.outdated')}</Alert>}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              size="small"
              disabled={connecting}
              startIcon={connecting ? <CircularProgress size={14} color="inherit" aria-hidden /> : undefined}
              onClick={() => dispatch(connectRequested())}
            >
              {error ? t('wsrx:entry.retry') : t('wsrx:entry.connect')}
            </Button>
            <Link href={WSRX_RELEASES_URL} target="_blank" rel="noopener noreferrer" variant="body2">
              {t('wsrx:entry.download')}
            </Link>
          </Stack>
        </>
      )}

      {settingsOpen && <WsrxSettingsDialog onClose={() => setSettingsOpen(false)} />}
    </Stack>
  );
}

// Default export for React.lazy (src/app/Providers.tsx).
export default WsrxProxyEntry;
