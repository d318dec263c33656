import Button from '@mui/material/Button';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { Captcha, captchaToken, type CaptchaHandle, type CaptchaResult } from '@/shared/captcha/Captcha';

/**
 * The captcha a signed-out form solves before it is sent (login, registration, recovery): `solve()`
 * asks the widget for a token while `solving` keeps the submit button busy.
 */
export function useCaptcha() {
  const ref = useRef<CaptchaHandle>(null);
  const [solving, setSolving] = useState(false);
  const solve = useCallback(async (): Promise<CaptchaResult> => {
    setSolving(true);
    try {
      return await captchaToken(ref.current);
    } finally {
      setSolving(false);
    }
  }, []);
  return { ref, solving, solve };
}

/** The captcha widget, then the form's full-width submit button (busy while sending or solving). */
export function CaptchaSubmit({
  captchaRef,
  busy,
  label,
}: {
  captchaRef: RefObject<CaptchaHandle | null>;
  busy: boolean;
  label: string;
}) {
  return (
    <>
      <Captcha ref={captchaRef} />
      <Button type="submit" variant="contained" size="large" disabled={busy} loading={busy} fullWidth>
        {label}
      </Button>
    </>
  );
}
