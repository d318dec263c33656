import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import StopOutlined from '@mui/icons-material/StopOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { createElement, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useInstanceSettings } from '@/shared/instances/InstanceSettings';
import { useProxyEntry } from '@/shared/instances/ProxyEntrySlot';
import { formatDateTime } from '@/shared/lib/dateTime';
import { isProxiedEntry, proxyWebSocketUrl } from '@/shared/lib/proxyUrl';
import { CopyField } from '@/shared/ui/CopyField';
import {
  useEditCreateTestContainerMutation,
  useEditDestroyTestContainerMutation,
  type ContainerInfoModel,
} from '../../api';

/**
 * Where the test container answers. With the platform proxy its entry is the container GUID, reached
 * through the proxy's no-instance route (a test container belongs to no team's instance); the app's
 * proxy slot maps it locally when it can. Otherwise the entry is `host:port`.
 */
function TestEntry({ entry, title }: { entry: string; title: string }) {
  const { t } = useTranslation();
  const { portMapping } = useInstanceSettings();
  const ProxyEntry = useProxyEntry();
  if (!isProxiedEntry(entry, portMapping))
    return (
      <CopyField
        label={t('challengeEdit:testContainer.entry')}
        value={entry}
        copyLabel={t('challengeEdit:testContainer.copyEntry')}
      />
    );
  const remote = proxyWebSocketUrl(entry, { noInstance: true });
  // The slot's component is the app's one stable component (a context value), not made here.
  if (ProxyEntry)
    return createElement(ProxyEntry, { remote, label: t('challengeEdit:testContainer.label', { title }) });
  return (
    <CopyField
      label={t('challengeEdit:testContainer.proxyUrl')}
      value={remote}
      copyLabel={t('challengeEdit:testContainer.copyEntry')}
    />
  );
}

/**
 * Start a container from the saved settings to try the challenge as a player would, see its entry,
 * and stop it (reference §2.4: the server runs it for the team "admin" with a test flag). Refusals
 * (no image or port saved yet, no container backend) are announced by the notification listener.
 */
export function TestContainerPanel({
  gameId,
  challengeId,
  title,
  container,
}: {
  gameId: number;
  challengeId: number;
  title: string;
  container: ContainerInfoModel | null | undefined;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const [start, started] = useEditCreateTestContainerMutation();
  const [stop, stopped] = useEditDestroyTestContainerMutation();
  const arg = { id: gameId, cId: challengeId };
  const busy = started.isLoading || stopped.isLoading;

  return (
    <Stack component="section" aria-labelledby={headingId} aria-busy={busy} spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography id={headingId} variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          {t('challengeEdit:testContainer.title')}
        </Typography>
        {container ? (
          <Chip
            size="small"
            variant="outlined"
            color={container.status === 'Running' ? 'success' : 'default'}
            label={t(`challengeEdit:testContainer.status.${container.status}`, { defaultValue: container.status })}
          />
        ) : null}
      </Stack>
      {container ? (
        <>
          <TestEntry entry={container.entry} title={title} />
          <Typography variant="body2" color="text.secondary">
            {t('challengeEdit:testContainer.times', {
              started: formatDateTime(container.startedAt, i18n.language),
              stops: formatDateTime(container.expectStopAt, i18n.language),
            })}
          </Typography>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('challengeEdit:testContainer.none')}
        </Typography>
      )}
      <Stack direction="row" spacing={1.5}>
        {container ? (
          <Button
            variant="outlined"
            color="error"
            startIcon={<StopOutlined />}
            disabled={busy}
            loading={stopped.isLoading}
            onClick={() => void stop(arg)}
          >
            {t('challengeEdit:testContainer.stop')}
          </Button>
        ) : (
          <Button
            variant="outlined"
            startIcon={<PlayArrowOutlined />}
            disabled={busy}
            loading={started.isLoading}
            onClick={() => void start(arg)}
          >
            {t('challengeEdit:testContainer.start')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
