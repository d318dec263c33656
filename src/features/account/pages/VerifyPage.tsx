import Alert from '@mui/material/Alert';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAccountVerifyMutation } from '../api';
import { LinkOutcome } from '../components/LinkOutcome';

/**
 * `/account/verify?token=…&email=…`, the link in the registration mail. Confirming the address also
 * signs the user in; the profile refreshes through the mutation's tag invalidation.
 */
export default function VerifyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [verify, state] = useAccountVerifyMutation();
  // Tokens are single-use: one call per visit, even when React runs effects twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current || !token || !email) return;
    sent.current = true;
    void verify({ accountVerifyModel: { token, email } });
  }, [email, token, verify]);

  return (
    <LinkOutcome
      title={t('account:verify.title')}
      state={state}
      success={t('account:verify.done')}
      next={{ to: '/', label: t('account:link.home') }}
      notice={!token || !email ? <Alert severity="error">{t('account:link.incomplete')}</Alert> : undefined}
    />
  );
}
