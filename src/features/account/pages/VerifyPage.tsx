import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '@/shared/api/session';
import { useAccountVerifyMutation } from '../api';
import { LinkOutcome } from '../components/LinkOutcome';

/**
 * `/account/verify?token=…&email=…`, the link in the registration mail. Confirming the address also
 * signs the user in; the profile refreshes through the mutation's tag invalidation. Someone already
 * signed in is asked first: anyone can send a link of their own account, and opening it would
 * otherwise sign the visitor in as them without a word (flags and writeups then go to that account).
 */
export default function VerifyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const session = useSession();
  const [verify, state] = useAccountVerifyMutation();
  const [confirmed, setConfirmed] = useState(false);
  // Kept here too: signing in as another user drops the whole API cache (session.ts), this call's
  // state with it.
  const [done, setDone] = useState(false);
  // Tokens are single-use: one call per visit, even when React runs effects twice.
  const sent = useRef(false);
  const complete = Boolean(token && email);
  const mayVerify = complete && !session.isLoading && (!session.signedIn || confirmed);

  useEffect(() => {
    if (sent.current || !mayVerify) return;
    sent.current = true;
    verify({ accountVerifyModel: { token, email } })
      .unwrap()
      .then(
        () => setDone(true),
        // Shown from the mutation's state.
        () => undefined,
      );
  }, [email, mayVerify, token, verify]);

  let notice;
  if (!complete) notice = <Alert severity="error">{t('account:link.incomplete')}</Alert>;
  else if (session.signedIn && !confirmed && !done && state.isUninitialized) {
    notice = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="warning" sx={{ width: '100%' }}>
          {t('account:verify.signedIn', { userName: session.userName })}
        </Alert>
        <Button variant="contained" onClick={() => setConfirmed(true)}>
          {t('account:verify.switch')}
        </Button>
      </Stack>
    );
  }

  return (
    <LinkOutcome
      title={t('account:verify.title')}
      state={{ isSuccess: done || state.isSuccess, isError: state.isError, error: state.error }}
      success={t('account:verify.done')}
      next={{ to: '/', label: t('account:link.home') }}
      notice={notice}
    />
  );
}
