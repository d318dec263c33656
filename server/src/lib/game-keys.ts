import { createHash } from 'node:crypto';
import { generateTeamKeyPair, signTeamToken } from './team-token';

/**
 * How a game's Ed25519 key pair is kept (reference §5.2). Both halves are base64 of their raw 32 bytes
 * (see team-token.ts, which signs and checks the team tokens). The private key is stored XOR-ed with
 * the XOR_KEY setting when one is configured, as GZCTF does with its XorKey, so a database dump alone
 * cannot forge team tokens; without XOR_KEY it is stored as plain base64.
 */
export interface GameKeys {
  publicKey: string;
  /** As stored: base64 of the seed, XOR-ed with XOR_KEY when set. */
  privateKey: string;
}

const KEY_BYTES = 32;

/** XOR with a repeating key; applying it twice gives the input back. An empty key changes nothing. */
export function xorBytes(data: Buffer, key: string | undefined): Buffer {
  const keyBytes = Buffer.from(key ?? '', 'utf8');
  if (keyBytes.length === 0) return Buffer.from(data);
  return Buffer.from(data.map((byte, index) => byte ^ keyBytes[index % keyBytes.length]!));
}

export function generateGameKeys(xorKey: string | undefined): GameKeys {
  const { publicKey, privateKey } = generateTeamKeyPair();
  return { publicKey, privateKey: xorBytes(Buffer.from(privateKey, 'base64'), xorKey).toString('base64') };
}

/** The plain base64 private key (the 32-byte seed) of a stored one. */
export function revealPrivateKey(stored: string, xorKey: string | undefined): string {
  const seed = xorBytes(Buffer.from(stored, 'base64'), xorKey);
  if (seed.length !== KEY_BYTES) throw new Error('stored game private key is not a 32-byte Ed25519 seed');
  return seed.toString('base64');
}

/** A team's token for a game, from the private key as stored. */
export function gameTeamToken(storedPrivateKey: string, xorKey: string | undefined, teamId: number): string {
  return signTeamToken(revealPrivateKey(storedPrivateKey, xorKey), teamId);
}

/**
 * The salt of `[TEAM_HASH]` flags (reference §5.7): SHA-256 hex of "GZCTF@{private key}@PK", over the
 * private key as stored (as GZCTF does), so it does not depend on XOR_KEY.
 */
export function teamHashSalt(storedPrivateKey: string): string {
  return createHash('sha256').update(`GZCTF@${storedPrivateKey}@PK`, 'utf8').digest('hex');
}
