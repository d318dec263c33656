import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session cookies and e-mailed tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What we store instead of a token, so a leaked table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Base64 (standard or URL-safe, padding optional) to text; undefined when it is not valid base64. */
export function decodeBase64(value: string): string | undefined {
  // Query strings turn '+' into ' ' when a link is copied carelessly; put them back.
  const normalised = value.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (normalised === '' || !/^[A-Za-z0-9+/]*$/.test(normalised) || normalised.length % 4 === 1) return undefined;
  const text = Buffer.from(normalised, 'base64').toString('utf8');
  return text.includes('\uFFFD') ? undefined : text;
}

export function encodeBase64(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64');
}
