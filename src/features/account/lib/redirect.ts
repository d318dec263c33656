/**
 * Where to go after signing in: the `from` query value when it is a path on this site, else home.
 * Anything else (`//evil.example`, `https://…`, `javascript:`) would turn the sign-in page into an
 * open redirect.
 */
export function safeRedirect(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  return from;
}

/** The sign-in page, coming back to `path` afterwards. */
export const loginPath = (path: string) => `/account/login?from=${encodeURIComponent(path)}`;
