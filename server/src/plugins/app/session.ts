import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashToken, randomToken } from '../../lib/tokens';
import { deleteExpiredSessions, deleteSession, extendSession, insertSession } from '../../modules/accounts';

/**
 * Server-side sessions behind GZCTF's `GZCTF_Token` cookie (reference §1.2: persistent, 7-day sliding).
 *
 * The cookie carries 256 random bits; the sessions table keeps only their SHA-256, so neither a leaked
 * table nor a leaked log line can be replayed. The cookie is not signed: a signature protects values
 * the server trusts without looking them up, and this value is always looked up, so guessing one is
 * as hard as guessing the random token itself. Not signing also means there is no secret to
 * configure, rotate or share between instances.
 */
export const SESSION_COOKIE = 'GZCTF_Token';
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Sliding means re-issuing; doing it at most hourly keeps it to one write per session per hour. */
export const SESSION_REFRESH_AFTER_MS = 60 * 60 * 1000;

function setCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.env.cookieSecure || request.protocol === 'https',
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.env.cookieSecure || request.protocol === 'https',
  });
}

/**
 * Signs `userId` in on this browser: the session the request came with (if any) ends first, as
 * GZCTF signs the previous user out before a sign-in.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const { db } = request.server;
  const now = new Date();
  if (request.sessionId) await deleteSession(db, request.sessionId);
  await deleteExpiredSessions(db, userId, now);
  const token = randomToken();
  const id = hashToken(token);
  await insertSession(db, {
    id,
    userId,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
  });
  request.sessionId = id;
  setCookie(request, reply, token);
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionId) await deleteSession(request.server.db, request.sessionId);
  request.sessionId = null;
  request.user = null;
  clearSessionCookie(request, reply);
}

/** Moves the expiry forward (and re-sends the cookie) once the last move is an hour old. */
export async function slideSession(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { id: string; expiresAt: Date },
  token: string,
  now: Date,
): Promise<void> {
  const remaining = session.expiresAt.getTime() - now.getTime();
  if (remaining > SESSION_LIFETIME_MS - SESSION_REFRESH_AFTER_MS) return;
  await extendSession(request.server.db, session.id, new Date(now.getTime() + SESSION_LIFETIME_MS));
  setCookie(request, reply, token);
}
