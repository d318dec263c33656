import type { GlobalConfig } from '../plugins/app/settings.defaults';

/**
 * The one place where encrypted request fields (passwords, flags) become plain text.
 *
 * GZCTF 1.4.0 can encrypt those fields with X25519 + AES-GCM when `globalConfig.apiEncryption` is on
 * (reference §1.5). That is not built yet: `GET /api/config` publishes no key (`apiPublicKey: null`),
 * so clients send plain text and this returns the value unchanged. When encryption arrives it goes
 * here; a value that fails to decrypt must come back as '' so callers answer "password required".
 */
export function decryptApiField(_globalConfig: GlobalConfig, value: string | null | undefined): string {
  return value ?? '';
}
