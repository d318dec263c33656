/**
 * Optional payload encryption (reference §1.5): while the server publishes an `apiPublicKey` in its
 * client config, passwords and flags travel as base64( ephemeral X25519 public key (32) ‖ nonce (12)
 * ‖ AES-256-GCM ciphertext + tag ), the AES key being SHA-256 of the X25519 shared secret. Endpoints
 * name the body fields to protect with `extraOptions: { encrypt: [...] }`; the base query does it,
 * loading the cipher code (./encryptFields.ts) only once a key is published.
 */

type KeySource = (state: unknown) => string | null | undefined;

let keySource: KeySource = () => null;

/** The info feature tells where the published key is (its cached client config). */
export function setApiKeySource(source: KeySource): void {
  keySource = source;
}

export const currentApiKey = (state: unknown): string | null => keySource(state) ?? null;
