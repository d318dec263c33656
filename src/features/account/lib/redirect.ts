/**
 * Where to go after signing in: the `from` query value when it is a path on this site, else home.
 * Anything else (`//evil.example`, `https://…`, `javascript:`) would turn the sign-in page into an
 * open redirect.
 */
export function safeRedirect(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  // URL parsing drops tabs and line breaks (`/\t/evil.example` is `//evil.example`): no control
  // character passes at all.
  for (const char of from) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return '/';
  }
  return from;
}

/** The sign-in page, coming back to `path` afterwards. */
export const loginPath = (path: string) => `/account/login?from=${encodeURIComponent(path)}`;
