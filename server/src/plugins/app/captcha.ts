import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CaptchaProvider, CaptchaSettings } from '../../env';
import type { Cache } from './cache';

export interface CaptchaInfo {
  type: CaptchaProvider;
  siteKey: string;
}

export interface PowChallenge {
  id: string;
  challenge: string;
  difficulty: number;
}

export interface Captcha {
  readonly provider: CaptchaProvider;
  /** What the client should show: nothing unless the account policy turns captcha on. */
  info(useCaptcha: boolean): CaptchaInfo;
  /** A HashPow challenge; only meaningful when the provider is HashPow. */
  createPowChallenge(): Promise<PowChallenge>;
  /** Checks the `challenge` field of a form. Never throws: a broken verifier counts as a failure. */
  verify(token: string | null | undefined, remoteIp: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    captcha: Captcha;
  }
}

/** Challenges live 5 minutes (reference §5.15). */
export const POW_TTL_MS = 5 * 60 * 1000;
const POW_KEY = (id: string) => `_HP_${id}`;

/** Number of leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** SHA-256(challenge bytes ‖ answer bytes) has at least `difficulty` leading zero bits. */
export function powAnswerValid(challengeHex: string, answerHex: string, difficulty: number): boolean {
  const digest = createHash('sha256')
    .update(Buffer.from(challengeHex, 'hex'))
    .update(Buffer.from(answerHex, 'hex'))
    .digest();
  return leadingZeroBits(digest) >= difficulty;
}

/** Brute force, for tests and tools: the first 8-byte answer meeting the difficulty. */
export function solvePow(challengeHex: string, difficulty: number): string {
  const answer = Buffer.alloc(8);
  for (let counter = 0; ; counter++) {
    answer.writeBigUInt64BE(BigInt(counter));
    const hex = answer.toString('hex');
    if (powAnswerValid(challengeHex, hex, difficulty)) return hex;
  }
}

export function createCaptcha(
  settings: CaptchaSettings,
  cache: Cache,
  log: FastifyBaseLogger,
  fetchImpl: typeof fetch = fetch,
): Captcha {
  async function verifyPow(token: string): Promise<boolean> {
    const match = /^([0-9a-fA-F]{24}):([0-9a-fA-F]{16})$/.exec(token.trim());
    if (!match) return false;
    const [, id = '', answer = ''] = match;
    // Taking the challenge consumes it whatever the outcome: one attempt per challenge, and two
    // requests racing with the same solution cannot both pass.
    const stored = await cache.take(POW_KEY(id.toLowerCase()));
    if (!stored) return false;
    const { challenge, difficulty } = JSON.parse(stored) as { challenge: string; difficulty: number };
    return powAnswerValid(challenge, answer, difficulty);
  }

  async function verifyTurnstile(token: string, remoteIp: string): Promise<boolean> {
    // As GZCTF: without a secret there is nothing to check against, so the check passes.
    if (!settings.turnstileSecret) return true;
    if (token.trim() === '') return false;
    try {
      const response = await fetchImpl(settings.turnstileVerifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret: settings.turnstileSecret, response: token, remoteip: remoteIp }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) {
        log.warn({ status: response.status }, 'turnstile verification answered an error');
        return false;
      }
      const body = (await response.json()) as { success?: unknown };
      return body.success === true;
    } catch (error) {
      log.warn({ err: error }, 'turnstile verification failed');
      return false;
    }
  }

  return {
    provider: settings.provider,
    info(useCaptcha) {
      if (!useCaptcha || settings.provider === 'None') return { type: 'None', siteKey: '' };
      return {
        type: settings.provider,
        siteKey: settings.provider === 'CloudflareTurnstile' ? settings.siteKey : '',
      };
    },
    async createPowChallenge() {
      const id = randomBytes(12).toString('hex');
      const challenge = randomBytes(8).toString('hex');
      const difficulty = settings.hashPowDifficulty;
      await cache.set(POW_KEY(id), JSON.stringify({ challenge, difficulty }), POW_TTL_MS);
      return { id, challenge, difficulty };
    },
    async verify(token, remoteIp) {
      try {
        switch (settings.provider) {
          case 'None':
            return true;
          case 'HashPow':
            return await verifyPow(token ?? '');
          case 'CloudflareTurnstile':
            return await verifyTurnstile(token ?? '', remoteIp);
        }
      } catch (error) {
        log.warn({ err: error }, 'captcha verification failed');
        return false;
      }
    },
  };
}

/** The captcha configured by CAPTCHA_PROVIDER, applied where `accountPolicy.useCaptcha` asks for it. */
export default fp(
  async function captcha(app: FastifyInstance) {
    app.decorate('captcha', createCaptcha(app.env.captcha, app.cache, app.log));
  },
  { name: 'captcha', dependencies: ['cache'] },
);
