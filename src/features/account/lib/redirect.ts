/**
 * Where to go after signing in: the `from` query value when it is a path on this site, else home.
 * Anything else (`//evil.example`, `https://…`, `javascript:`) would turn the sign-in page into an
 * open redirect.
 */
export function safeRedirect(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  // URL parsing drops tabs and line breaks (`/\t/evil.example` is `//evil.example`): no control
  // character passes at all.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(from)) return '/';
  return from;
}

/** The sign-in page, coming back to `path` afterwards. */
export const loginPath = (path: string) => `/account/login?from=${encodeURIComponent(path)}`;
