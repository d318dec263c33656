import AcUnitOutlined from '@mui/icons-material/AcUnitOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { formatDateTime } from '@/shared/lib/dateTime';
import { useBeyondGetGameFreezeQuery, useBeyondSetGameFreezeMutation } from '../api';
import { fromLocalInput, toLocalInput } from '../lib/gameForm';
import { Section } from './Section';

interface Props {
  gameId: number;
  /** The stored game's start and end (Unix ms): a freeze must lie between them. */
  start: number;
  end: number;
}

/** Its own form: freezing is saved at once, apart from the game's other settings. */
function FreezeForm({ gameId, start, end, freezeAt }: Props & { freezeAt: number | null }) {
  const { t, i18n } = useTranslation();
  const [value, setValue] = useState(() => toLocalInput(freezeAt));
  const [problem, setProblem] = useState<string | null>(null);
  const [save, { isLoading, error }] = useBeyondSetGameFreezeMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const at = fromLocalInput(value);
    const found = Number.isNaN(at) ? 'freezeRequired' : at < start || at > end ? 'freezeOutOfRange' : null;
    setProblem(found);
    if (found) return;
    // The server's answer (inline below and as a notification) says why a save failed.
    await save({ id: gameId, gameFreezeModel: { freezeAt: at } }).catch(() => undefined);
  }

  async function lift() {
    setProblem(null);
    // On success the stored value changes and the form starts afresh (it is keyed by it).
    await save({ id: gameId, gameFreezeModel: { freezeAt: null } }).catch(() => undefined);
  }

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
      <Typography variant="body2" color="text.secondary">
        {freezeAt === null
          ? t('edit:info.freeze.none')
          : t('edit:info.freeze.active', { time: formatDateTime(freezeAt, i18n.language) })}
      </Typography>
      <TextField
        label={t('edit:info.field.freezeAt')}
        type="datetime-local"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={problem !== null}
        helperText={problem ? t(`edit:info.error.${problem}`) : t('edit:info.help.freezeAt')}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ maxWidth: { md: 360 } }}
      />
      {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => void lift()} disabled={freezeAt === null || isLoading}>
          {t('edit:action.liftFreeze')}
        </Button>
        <Button type="submit" variant="outlined" startIcon={<AcUnitOutlined />} loading={isLoading}>
          {t('edit:action.saveFreeze')}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * Beyond GZCTF: an admin-set scoreboard freeze. Players see the standings as of the freeze; admins
 * and monitors keep seeing them live.
 */
export function ScoreboardFreezeSection(props: Props) {
  const { t } = useTranslation();
  const freeze = useBeyondGetGameFreezeQuery({ id: props.gameId });
  return (
    <Section title={t('edit:info.section.freeze')}>
      {/* A failed reload (after a save) is said above the form, which stays as it was. */}
      <Stack spacing={2}>
        {freeze.error && <Alert severity="error">{getErrorMessage(t, freeze.error)}</Alert>}
        {freeze.data && (
          // Keyed by the stored value, so the field shows what was saved after each change.
          <FreezeForm key={freeze.data.freezeAt ?? 'none'} {...props} freezeAt={freeze.data.freezeAt} />
        )}
      </Stack>
    </Section>
  );
}
