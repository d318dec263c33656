import { useImperativeHandle } from 'react';
import type { CaptchaWidgetProps } from '@/shared/captcha/Captcha';
import { useCaptchaConfig } from '../api';
import HashPowCaptcha from './HashPowCaptcha';
import TurnstileCaptcha from './TurnstileCaptcha';

/** No captcha configured (or not known yet): every submission goes without a token. */
function NoCaptcha({ ref }: CaptchaWidgetProps) {
  useImperativeHandle(ref, () => ({ getToken: () => Promise.resolve({ ok: true, token: null }) }), []);
  return null;
}

/**
 * The captcha `GET /api/captcha` asks for (reference §5.15). The app hands it to the account forms
 * through CaptchaWidgetContext (src/shared/captcha/Captcha.tsx).
 */
export default function CaptchaWidget({ ref }: CaptchaWidgetProps) {
  const { provider, siteKey } = useCaptchaConfig();
  switch (provider) {
    case 'HashPow':
      return <HashPowCaptcha ref={ref} />;
    case 'CloudflareTurnstile':
      return <TurnstileCaptcha ref={ref} siteKey={siteKey} />;
    default:
      return <NoCaptcha ref={ref} />;
  }
}
