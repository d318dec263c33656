import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import type { CaptchaWidgetProps } from '@/shared/captcha/Captcha';
import { powToken } from '@/shared/captcha/pow';
import { solvePowTask, type PowTask } from '@/shared/captcha/solvePowTask';
import { usePowChallengeMutation } from '../api';

/** Challenges live 5 minutes on the server (sliding); an older solution is not worth sending. */
const FRESH_FOR_MS = 4 * 60 * 1000;

interface Solution {
  token: string;
  solvedAt: number;
}

type Status = { kind: 'solving' } | { kind: 'ready' } | { kind: 'failed'; error: unknown };

/**
 * HashPow (reference §5.15): fetches a challenge and solves it in a Web Worker as soon as the form
 * shows, so the answer is usually ready by the time the visitor submits. Each token is used once;
 * handing one out starts solving the next, for a retry after a failed submission.
 */
interface Progress {
  state: 'solving' | 'solved' | 'failed' | 'cancelled';
  task?: PowTask;
}

type Attempt = Progress & { solution: Promise<Solution> };

export default function HashPowCaptcha({ ref }: CaptchaWidgetProps) {
  const { t } = useTranslation();
  const [fetchChallenge] = usePowChallengeMutation();
  const [status, setStatus] = useState<Status>({ kind: 'solving' });
  const attempt = useRef<Attempt | null>(null);

  const cancel = useCallback(() => {
    if (attempt.current?.state === 'solving') {
      attempt.current.state = 'cancelled';
      attempt.current.task?.cancel();
    }
  }, []);

  /** Starts on a new solution; its outcome updates the status when it arrives. */
  const begin = useCallback((): Attempt => {
    cancel();
    const progress: Progress = { state: 'solving' };
    const solution = (async () => {
      const challenge = await fetchChallenge().unwrap();
      if (progress.state === 'cancelled') throw new Error('cancelled');
      progress.task = solvePowTask(challenge.challenge, challenge.difficulty);
      const answer = await progress.task.answer;
      return { token: powToken(challenge.id, answer), solvedAt: Date.now() };
    })();
    const next: Attempt = Object.assign(progress, { solution });
    attempt.current = next;
    next.solution.then(
      () => {
        if (next.state !== 'solving') return;
        next.state = 'solved';
        setStatus({ kind: 'ready' });
      },
      (error: unknown) => {
        if (next.state !== 'solving') return;
        next.state = 'failed';
        setStatus({ kind: 'failed', error });
      },
    );
    return next;
  }, [cancel, fetchChallenge]);

  /** A new solution after the first: shows "checking" again until it is ready. */
  const prepare = useCallback((): Attempt => {
    setStatus({ kind: 'solving' });
    return begin();
  }, [begin]);

  useEffect(() => {
    begin();
    return cancel;
  }, [begin, cancel]);

  useImperativeHandle(
    ref,
    () => ({
      async getToken() {
        const latest = attempt.current;
        const usable = latest?.state === 'solving' || latest?.state === 'solved' ? latest : prepare();
        try {
          let solution = await usable.solution;
          if (Date.now() - solution.solvedAt > FRESH_FOR_MS) solution = await prepare().solution;
          // Spent: start on the next one now, ready for a retry if this submission fails.
          prepare();
          return { ok: true, token: solution.token };
        } catch {
          return { ok: false };
        }
      },
    }),
    [prepare],
  );

  if (status.kind === 'failed') {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => prepare()}>
            {t('account:captcha.retry')}
          </Button>
        }
      >
        {t('account:captcha.powFailed', { reason: getErrorMessage(t, status.error) })}
      </Alert>
    );
  }
  return (
    <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center', color: 'text.secondary' }}>
      {status.kind === 'ready' ? (
        <CheckCircleOutlined fontSize="small" color="success" />
      ) : (
        <CircularProgress size={16} aria-hidden />
      )}
      <Typography variant="body2">
        {t(status.kind === 'ready' ? 'account:captcha.powReady' : 'account:captcha.powSolving')}
      </Typography>
    </Stack>
  );
}
