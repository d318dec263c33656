import DeleteOutline from '@mui/icons-material/DeleteOutline';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import UpdateOutlined from '@mui/icons-material/UpdateOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { createElement, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useInstanceSettings } from '@/shared/instances/InstanceSettings';
import { useProxyEntry } from '@/shared/instances/ProxyEntrySlot';
import { isProxiedEntry, proxyWebSocketUrl } from '@/shared/lib/proxyUrl';
import { CopyField } from '@/shared/ui/CopyField';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useGameCreateContainerMutation,
  useGameDeleteContainerMutation,
  useGameExtendContainerLifetimeMutation,
  type ChallengeDetailModel,
} from '../api';
import { countdownParts, useNow } from '../lib/time';

const MINUTE = 60_000;

export const isContainerChallenge = (type: string) => type === 'StaticContainer' || type === 'DynamicContainer';

/**
 * How to reach the instance: a proxied one through the app's proxy slot (the local wsrx mapping),
 * or its WebSocket URL when the app provides no slot; otherwise `host:port`.
 */
function InstanceEntry({ entry, title }: { entry: string; title: string }) {
  const { t } = useTranslation();
  const { portMapping } = useInstanceSettings();
  const ProxyEntry = useProxyEntry();
  if (!isProxiedEntry(entry, portMapping))
    return <CopyField label={t('game:instance.entry')} value={entry} copyLabel={t('game:instance.copyEntry')} />;
  const remote = proxyWebSocketUrl(entry);
  // The slot's component is the app's one stable component (a context value), not made here.
  if (ProxyEntry) return createElement(ProxyEntry, { remote, label: title });
  return (
    <Stack spacing={0.5}>
      <CopyField label={t('game:instance.proxyUrl')} value={remote} copyLabel={t('game:instance.copyEntry')} />
      <Typography variant="caption" color="text.secondary">
        {t('game:instance.proxyHint')}
      </Typography>
    </Stack>
  );
}

/** The entry, the time left (ticking every second) and the renew and destroy actions. */
function RunningInstance({
  gameId,
  challenge,
  entry,
}: {
  gameId: number;
  challenge: ChallengeDetailModel;
  entry: string;
}) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const { renewalWindow, extensionDuration } = useInstanceSettings();
  const [extend, extended] = useGameExtendContainerLifetimeMutation();
  const [destroy, destroyed] = useGameDeleteContainerMutation();
  const now = useNow(1000);
  const closeTime = challenge.context.closeTime;
  const left = typeof closeTime === 'number' ? closeTime - now : null;
  const arg = { id: gameId, challengeId: challenge.id };
  const busy = extended.isLoading || destroyed.isLoading;
  // The server allows a renewal only this close to the stop time.
  const canRenew = left !== null && left <= renewalWindow * MINUTE;

  async function onDestroy() {
    const confirmed = await confirm({
      title: t('game:instance.destroyConfirm.title'),
      message: t('game:instance.destroyConfirm.message', { title: challenge.title }),
      confirmLabel: t('game:instance.destroy'),
      destructive: true,
    });
    // A refusal is announced by the notification listener.
    if (confirmed) await destroy(arg);
  }

  let timeText = '';
  if (left !== null) {
    const { days, clock } = countdownParts(left);
    timeText =
      left <= 0
        ? t('game:instance.expired')
        : t('game:instance.timeLeft', { time: days > 0 ? t('game:time.daysAnd', { count: days, clock }) : clock });
  }

  return (
    <Stack spacing={1.5} aria-busy={busy}>
      <InstanceEntry entry={entry} title={challenge.title} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="body2" role="timer" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {timeText}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            startIcon={<UpdateOutlined />}
            disabled={!canRenew || busy}
            loading={extended.isLoading}
            onClick={() => void extend(arg)}
          >
            {t('game:instance.renew')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteOutline />}
            disabled={busy}
            loading={destroyed.isLoading}
            onClick={() => void onDestroy()}
          >
            {t('game:instance.destroy')}
          </Button>
        </Stack>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t('game:instance.renewHint', { window: renewalWindow, extension: extensionDuration })}
      </Typography>
    </Stack>
  );
}

/**
 * The instance of a container challenge (reference §5.9, §7.4): start one, or see its entry and the
 * time left, renew it inside the renewal window, destroy it. The challenge detail carries the state
 * (`context.instanceEntry`, `context.closeTime`); the calls refresh it.
 */
export function InstancePanel({ gameId, challenge }: { gameId: number; challenge: ChallengeDetailModel }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [create, created] = useGameCreateContainerMutation();
  const entry = challenge.context.instanceEntry;

  return (
    <Stack component="section" aria-labelledby={headingId} spacing={1.5}>
      <Typography id={headingId} variant="subtitle2" component="h3">
        {t('game:instance.title')}
      </Typography>
      {entry ? (
        <RunningInstance gameId={gameId} challenge={challenge} entry={entry} />
      ) : (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Typography variant="body2" color="text.secondary">
            {t('game:instance.none')}
          </Typography>
          <Button
            variant="contained"
            startIcon={<PlayArrowOutlined />}
            loading={created.isLoading}
            onClick={() => void create({ id: gameId, challengeId: challenge.id })}
            sx={{ flexShrink: 0 }}
          >
            {t('game:instance.start')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
