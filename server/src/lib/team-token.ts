import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Team tokens (reference §5.2): `"{teamId}:{base64 Ed25519 signature of 'GZCTF_TEAM_{teamId}'}"`, signed
 * with the game's key pair, so a challenge service holding only the game's public key can tell which
 * team it is talking to. Keys travel as base64 of their raw 32 bytes (the public key, and the private
 * key's seed), as GZCTF's BouncyCastle keys do; Node wants KeyObjects, built here through JWK.
 */

const KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
// Standard base64 with its padding, as .NET writes it; anything else is not a key or signature of ours.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeStrictBase64(value: string): Buffer | undefined {
  const trimmed = value.trim();
  return trimmed !== '' && BASE64.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
}

function publicKeyObject(raw: Buffer): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

// Ed25519's PKCS#8 wrapper around a 32-byte seed (RFC 8410); Node derives the public half itself.
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function privateKeyObject(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export const teamTokenMessage = (teamId: number | string) => `GZCTF_TEAM_${teamId}`;

/** A fresh game key pair, both halves base64 of 32 raw bytes. */
export function generateTeamKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64'),
    privateKey: Buffer.from(jwk.d!, 'base64url').toString('base64'),
  };
}

/** The token a participation shows its team; `privateKey` is the game's (already un-XOR-ed) key. */
export function signTeamToken(privateKey: string, teamId: number): string {
  const seed = decodeStrictBase64(privateKey);
  if (seed?.length !== KEY_BYTES) throw new Error('a game private key is 32 bytes of base64');
  const signature = sign(null, Buffer.from(teamTokenMessage(teamId), 'utf8'), privateKeyObject(seed));
  return `${teamId}:${signature.toString('base64')}`;
}

export type TeamTokenCheck = 'valid' | 'invalid' | 'malformed';

/**
 * Checks a team token against a game public key: 'malformed' when the token has no `id:` prefix or
 * the key or signature is not base64 of the right size, 'invalid' when the signature does not match.
 * As in GZCTF, the id is taken as the text before the first colon, whatever it holds.
 */
export function verifyTeamToken(teamToken: string, publicKey: string): TeamTokenCheck {
  const colon = teamToken.indexOf(':');
  if (colon < 0) return 'malformed';
  const key = decodeStrictBase64(publicKey);
  const signature = decodeStrictBase64(teamToken.slice(colon + 1));
  if (key?.length !== KEY_BYTES || !signature) return 'malformed';
  if (signature.length !== SIGNATURE_BYTES) return 'invalid';
  let keyObject: KeyObject;
  try {
    keyObject = publicKeyObject(key);
  } catch {
    // 32 bytes that are not a point on the curve.
    return 'malformed';
  }
  const message = Buffer.from(teamTokenMessage(teamToken.slice(0, colon)), 'utf8');
  try {
    return verify(null, message, keyObject, signature) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}
