import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import type { AnswerResult } from '../api';
import { useFlagSubmission } from '../hooks/useFlagSubmission';

/** Contract limit on a flag (reference §2.5: ≤ 127 characters after trimming). */
export const FLAG_MAX = 127;

const SEVERITY: Record<Exclude<AnswerResult, 'FlagSubmitted'>, 'success' | 'error' | 'warning'> = {
  Accepted: 'success',
  WrongAnswer: 'error',
  CheatDetected: 'error',
  NotFound: 'warning',
};

/**
 * The flag input: submit, wait for the checker's verdict, say it plainly. Once the team has solved
 * the challenge there is nothing left to submit: the field is read-only and says so (a correct flag
 * sent again would be judged Accepted again and change nothing).
 */
export function FlagForm({
  gameId,
  challengeId,
  solved = false,
  autoFocus = false,
}: {
  gameId: number;
  challengeId: number;
  /** The team has solved this challenge. */
  solved?: boolean;
  /** Focus the flag input on mount (the challenge dialog opens on it). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [flag, setFlag] = useState('');
  const { submit, status, busy, error } = useFlagSubmission(gameId, challengeId);
  const trimmed = flag.trim();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!trimmed || busy || solved) return;
    void submit(trimmed);
  }

  return (
    <Stack component="form" spacing={1.5} onSubmit={onSubmit} noValidate>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          autoFocus={autoFocus && !solved}
          label={t('game:flag.label')}
          placeholder="flag{...}"
          value={flag}
          onChange={(event) => setFlag(event.target.value)}
          fullWidth
          size="small"
          autoComplete="off"
          slotProps={{
            // Read-only rather than disabled: a field that had the focus when the verdict closed it
            // keeps it (a disabled one drops it to the page, and a keyboard user starts over).
            htmlInput: { maxLength: FLAG_MAX, spellCheck: false, readOnly: solved, sx: { fontFamily: 'monospace' } },
          }}
        />
        <Button type="submit" variant="contained" loading={busy} disabled={!trimmed || solved} sx={{ flexShrink: 0 }}>
          {t('game:flag.submit')}
        </Button>
      </Stack>
      <div role="status" aria-live="polite">
        {status === 'FlagSubmitted' && !error && <Alert severity="info">{t('game:flag.FlagSubmitted')}</Alert>}
        {status && status !== 'FlagSubmitted' && (
          <Alert severity={SEVERITY[status]} variant="filled">
            {t(`game:flag.${status}`)}
          </Alert>
        )}
        {Boolean(error) && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        {/* The verdict just given says it already; this is for a challenge solved before. */}
        {solved && !status && <Alert severity="success">{t('game:flag.alreadySolved')}</Alert>}
      </div>
    </Stack>
  );
}
