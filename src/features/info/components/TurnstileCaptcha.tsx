import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaWidgetProps } from '@/shared/captcha/Captcha';

/** The part of Cloudflare's Turnstile API used here (explicit rendering). */
interface Turnstile {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      theme: 'light' | 'dark';
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): string | undefined;
  reset(widgetId?: string): void;
  remove(widgetId: string): void;
}

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

let loading: Promise<Turnstile> | undefined;

/** Cloudflare's script, added to the page the first time a form needs it, never before. */
function loadTurnstile(): Promise<Turnstile> {
  const ready = (window as { turnstile?: Turnstile }).turnstile;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const turnstile = (window as { turnstile?: Turnstile }).turnstile;
      if (turnstile) resolve(turnstile);
      else reject(new Error('Turnstile did not initialise'));
    };
    script.onerror = () => {
      script.remove();
      loading = undefined;
      reject(new Error('Turnstile could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

type Status = 'loading' | 'shown' | 'required' | 'failed';

/** Cloudflare Turnstile with the site key from `GET /api/captcha`; each token is used once. */
export default function TurnstileCaptcha({ ref, siteKey }: CaptchaWidgetProps & { siteKey: string }) {
  const { t } = useTranslation();
  const scheme = useTheme().palette.mode;
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ turnstile: Turnstile; id: string } | null>(null);
  const token = useRef<string | null>(null);
  const [status, setStatus] = useState<Status>('loading');

  useEffect(() => {
    let active = true;
    loadTurnstile().then(
      (turnstile) => {
        if (!active || !container.current) return;
        const id = turnstile.render(container.current, {
          sitekey: siteKey,
          theme: scheme,
          callback: (value) => {
            token.current = value;
            setStatus('shown');
          },
          'expired-callback': () => {
            token.current = null;
          },
          'error-callback': () => {
            token.current = null;
            setStatus('failed');
          },
        });
        if (id) widget.current = { turnstile, id };
        setStatus('shown');
      },
      () => active && setStatus('failed'),
    );
    return () => {
      active = false;
      if (widget.current) widget.current.turnstile.remove(widget.current.id);
      widget.current = null;
      token.current = null;
    };
  }, [siteKey, scheme]);

  useImperativeHandle(
    ref,
    () => ({
      getToken() {
        const value = token.current;
        if (!value) {
          setStatus((current) => (current === 'failed' ? current : 'required'));
          return Promise.resolve({ ok: false });
        }
        token.current = null;
        if (widget.current) widget.current.turnstile.reset(widget.current.id);
        return Promise.resolve({ ok: true, token: value });
      },
    }),
    [],
  );

  return (
    <Box>
      <Box ref={container} sx={{ minHeight: status === 'failed' ? 0 : 65 }} />
      {status === 'required' && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {t('account:captcha.required')}
        </Alert>
      )}
      {status === 'failed' && <Alert severity="error">{t('account:captcha.turnstileFailed')}</Alert>}
    </Box>
  );
}
