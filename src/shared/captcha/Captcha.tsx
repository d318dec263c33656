import { createContext, Suspense, useContext, type ReactNode, type Ref } from 'react';

/**
 * What a form sends in its `challenge` field: `ok` with the token (null when no captcha is
 * configured), or not ok when the visitor still has to pass the check; the widget then says why.
 */
export type CaptchaResult = { ok: true; token: string | null } | { ok: false };

export interface CaptchaHandle {
  /** A token for one submission; each token is single-use (reference §5.15). */
  getToken(): Promise<CaptchaResult>;
}

export interface CaptchaWidgetProps {
  ref?: Ref<CaptchaHandle>;
}

/**
 * Renders the captcha widget the app provides. The forms that need one (sign-in, registration,
 * recovery) live in the account feature, while the captcha settings come from the info feature's
 * endpoints; features never import each other, so the app hands the widget down through this context.
 */
export const CaptchaWidgetContext = createContext<((props: CaptchaWidgetProps) => ReactNode) | null>(null);

/** The configured captcha (nothing when none is configured or provided). */
export function Captcha({ ref }: CaptchaWidgetProps) {
  const renderWidget = useContext(CaptchaWidgetContext);
  if (!renderWidget) return null;
  return <Suspense fallback={null}>{renderWidget({ ref })}</Suspense>;
}

/** The token for a submission from a widget that may not be there (or not loaded yet). */
export function captchaToken(handle: CaptchaHandle | null): Promise<CaptchaResult> {
  return handle ? handle.getToken() : Promise.resolve({ ok: true, token: null });
}
