/** The cipher of payload encryption (reference §1.5; see ./encryption.ts), loaded on first need. */

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

export async function encryptApiData(plain: string, publicKeyBase64: string): Promise<string> {
  const { subtle } = globalThis.crypto;
  const serverKey = await subtle.importKey('raw', fromBase64(publicKeyBase64), { name: 'X25519' }, false, []);
  const ephemeral = (await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as CryptoKeyPair;
  const shared = await subtle.deriveBits({ name: 'X25519', public: serverKey }, ephemeral.privateKey, 256);
  const aesKey = await subtle.importKey('raw', await subtle.digest('SHA-256', shared), 'AES-GCM', false, ['encrypt']);
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const sealed = await subtle.encrypt({ name: 'AES-GCM', iv: nonce }, aesKey, new TextEncoder().encode(plain));
  const ephemeralPublic = new Uint8Array(await subtle.exportKey('raw', ephemeral.publicKey));
  const wire = new Uint8Array(ephemeralPublic.length + nonce.length + sealed.byteLength);
  wire.set(ephemeralPublic, 0);
  wire.set(nonce, ephemeralPublic.length);
  wire.set(new Uint8Array(sealed), ephemeralPublic.length + nonce.length);
  return toBase64(wire);
}

/** The body with the named string fields encrypted for `key`; other fields and types as they are. */
export async function encryptFields(
  body: Record<string, unknown>,
  fields: readonly string[],
  key: string,
): Promise<Record<string, unknown>> {
  const copy = { ...body };
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'string' && value !== '') copy[field] = await encryptApiData(value, key);
  }
  return copy;
}
