import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';
import { xorBytes } from './game-keys';

/**
 * Optional payload encryption of sensitive request fields (reference §1.5): passwords and flags are
 * sent as base64( ephemeral X25519 public key (32) ‖ nonce (12) ‖ AES-256-GCM ciphertext + tag ),
 * the AES key being SHA-256 of the X25519 shared secret with the platform's key. It keeps those
 * values out of TLS-terminating proxies' logs; it is no substitute for HTTPS.
 */

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface ApiKeyPair {
  /** Base64 of the raw 32-byte public key, as `GET /api/config` publishes it. */
  publicKey: string;
  /** Base64 of the raw 32-byte private key, XOR-ed with XOR_KEY when set (as GZCTF stores it). */
  privateKey: string;
}

const rawPublic = (key: ReturnType<typeof createPublicKey>) =>
  Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');

/** A private key object from its raw 32 bytes: the PKCS#8 wrapping of an X25519 key (RFC 8410). */
const privateFromRaw = (raw: Buffer) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), raw]),
    format: 'der',
    type: 'pkcs8',
  });

const publicFromRaw = (raw: Buffer) =>
  createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw.toString('base64url') }, format: 'jwk' });

export function generateApiKeyPair(xorKey: string | undefined): ApiKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const rawPrivate = Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
  return {
    publicKey: rawPublic(publicKey).toString('base64'),
    privateKey: xorBytes(rawPrivate, xorKey).toString('base64'),
  };
}

const aesKey = (privateKey: ReturnType<typeof createPrivateKey>, publicKey: ReturnType<typeof createPublicKey>) =>
  createHash('sha256').update(diffieHellman({ privateKey, publicKey })).digest();

/** Encrypts like the web client does; used by tests and tools, never by the server's own answers. */
export function encryptApiData(plain: string, publicKeyBase64: string): string {
  const ephemeral = generateKeyPairSync('x25519');
  const key = aesKey(ephemeral.privateKey, publicFromRaw(Buffer.from(publicKeyBase64, 'base64')));
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([rawPublic(ephemeral.publicKey), nonce, body]).toString('base64');
}

/** The plain text of an encrypted field, or null when it is not one made for this key. */
export function decryptApiData(wire: string, storedPrivateKey: string, xorKey: string | undefined): string | null {
  try {
    const data = Buffer.from(wire, 'base64');
    if (data.length < KEY_BYTES + NONCE_BYTES + TAG_BYTES) return null;
    const rawPrivate = xorBytes(Buffer.from(storedPrivateKey, 'base64'), xorKey);
    if (rawPrivate.length !== KEY_BYTES) return null;
    const key = aesKey(privateFromRaw(rawPrivate), publicFromRaw(data.subarray(0, KEY_BYTES)));
    const nonce = data.subarray(KEY_BYTES, KEY_BYTES + NONCE_BYTES);
    const tag = data.subarray(data.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([
      decipher.update(data.subarray(KEY_BYTES + NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  } catch {
    return null;
  }
}

/**
 * The one place where request fields that may be encrypted (passwords, flags) become plain text.
 * With encryption off the value is used as sent. With it on, a value that does not decrypt comes back
 * as '' so callers answer "password/flag required", as GZCTF does.
 */
// The two settings it reads, typed here so this library (also bundled into the client) stays free of server modules.
interface EncryptionSettings {
  apiEncryption: boolean;
  apiPrivateKey: string | null;
}

export function decryptApiField(
  globalConfig: EncryptionSettings,
  value: string | null | undefined,
  xorKey?: string,
): string {
  if (!value) return '';
  if (!globalConfig.apiEncryption || !globalConfig.apiPrivateKey) return value;
  return decryptApiData(value, globalConfig.apiPrivateKey, xorKey) ?? '';
}
