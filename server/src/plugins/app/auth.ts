import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthLevel } from '../../contract/contract';
import type { Role } from '../../db/schema/enums';
import { forbidden, unauthorized } from '../../lib/http-error';
import { hashToken } from '../../lib/tokens';
import { clearSessionCookie, SESSION_COOKIE, slideSession } from './session';
import { Batcher } from '../../lib/batcher';
import type { Db } from '../../db/client';
import { deleteSession, identifySessions, type SessionLookup, type SessionRecord } from './session.repository';

export type { Role };

/** The signed-in user as every handler sees it (`request.user`). */
export interface SessionUser {
  id: string;
  userName: string;
  email: string;
  /** 'Banned' | 'User' | 'Monitor' | 'Admin' */
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set before any route-level hook or handler runs. */
    user: SessionUser | null;
    /** The stored id (token hash) of the session the request came with. */
    sessionId: string | null;
  }
}

// A higher role includes the lower ones (reference §1.2).
const RANK: Record<Role, number> = { Banned: 0, User: 1, Monitor: 2, Admin: 3 };

/** Whether `user` meets a contract `x-auth` level (or a role): 'anon' admits everyone, even signed out. */
export function hasRole(user: SessionUser | null, level: AuthLevel | Role): boolean {
  if (level === 'anon') return true;
  return user !== null && RANK[user.role] >= RANK[level];
}

/** For handlers of non-anonymous operations: the signed-in user (the route guard has already run). */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

const sessionReaders = new WeakMap<Db, Batcher<SessionLookup, SessionRecord | undefined>>();

/**
 * Session lookups of concurrent requests share one statement, which also records their visits
 * (read fresh each time, never cached, so a sign-out, ban or role change counts from the next
 * request on).
 */
function readSession(db: Db, lookup: SessionLookup): Promise<SessionRecord | undefined> {
  let reader = sessionReaders.get(db);
  if (!reader) {
    reader = new Batcher((lookups: SessionLookup[]) => identifySessions(db, lookups), {
      maxBatch: 256,
      maxInFlight: 2,
    });
    sessionReaders.set(db, reader);
  }
  return reader.run(lookup);
}

/** Reads the session cookie; a missing, unknown or expired one leaves the request anonymous. */
export async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const { db } = request.server;
  const now = new Date();
  // The lookup records the visit too (at most once every 5 s per user, as GZCTF).
  const session = await readSession(db, { id: hashToken(token), ip: request.ip, at: now });
  if (!session || session.expiresAt <= now) {
    if (session) await deleteSession(db, session.id);
    clearSessionCookie(request, reply);
    return;
  }
  const { id, userName, email, role } = session.user;
  request.user = { id, userName, email, role };
  request.sessionId = session.id;
  await slideSession(request, reply, session, token, now);
}

/** Paths whose requests may carry a session; static files and the app shell never need one. */
const SESSION_PREFIXES = ['/api/', '/hub/', '/assets/'];

/**
 * Authentication and the contract's `x-auth` guard for every route.
 *
 * The session is read in `onRequest`, so the rate limiter (registered after this plugin) can count
 * per user; the role check runs in `preParsing`, after the limiter and before any body is read, so a
 * request without the right role is refused without parsing its upload.
 */
export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);

    app.addHook('onRequest', async (request, reply) => {
      const pathname = (request.url.split('?')[0] ?? '').toLowerCase();
      if (!request.routeOptions.config.operation && !SESSION_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
        return;
      }
      await identify(request, reply);
    });

    app.addHook('preParsing', async (request) => {
      const operation = request.routeOptions.config.operation;
      const level = operation?.auth ?? 'anon';
      if (level === 'anon') return;
      if (!request.user) throw unauthorized();
      if (!hasRole(request.user, level)) {
        if (level !== 'User') {
          request.log.warn(
            { userId: request.user.id, role: request.user.role, operation: operation?.operationId },
            'access denied',
          );
        }
        throw forbidden();
      }
    });
  },
  { name: 'auth', dependencies: ['db', 'errors'] },
);
