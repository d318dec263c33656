import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthLevel } from '../../contract/contract';
import type { Role } from '../../db/schema/enums';
import { forbidden, unauthorized } from '../../lib/http-error';
import { hashToken } from '../../lib/tokens';
import { clearSessionCookie, SESSION_COOKIE, slideSession } from './session';
import { batcherOf } from '../../lib/batcher';
import type { Db } from '../../db/client';
import { SessionCache, sessionChanges } from './session-cache';
import {
  deleteSession,
  identifySessions,
  recordVisits,
  type SessionLookup,
  type SessionRecord,
  type Visit,
} from '../../modules/accounts';

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
  interface FastifyInstance {
    /** This instance's cached session lookups and the visits seen on them (see `identify`). */
    sessionCache: { lookups: SessionCache; visits: Map<string, Visit>; flushVisits(): Promise<void> };
  }
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

/**
 * Session lookups of concurrent requests share one statement, which also records their visits. Its
 * answers are then cached for up to a minute (`SessionCache`); a sign-out, ban or role change drops
 * them at once, here and on the other instances.
 */
function readSession(db: Db, lookup: SessionLookup): Promise<SessionRecord | undefined> {
  return batcherOf(db, 'session lookup', (lookups: SessionLookup[]) => identifySessions(db, lookups), {
    maxBatch: 256,
    maxInFlight: 2,
  }).run(lookup);
}

/** How many cookies' session ids `sessionIdOf` remembers (about 200 bytes each). */
const REMEMBERED_IDS = 20_000;
const idsByToken = new Map<string, string>();

/**
 * The session id (the SHA-256 of the cookie's token) of a token seen recently, hashed once: hashing
 * it on every request had cost about 3 µs of each signed-in request, a fortieth of a cached
 * scoreboard revalidation. The oldest goes first when full; the map holds only what the requests
 * themselves carried.
 */
function sessionIdOf(token: string): string {
  let id = idsByToken.get(token);
  if (id === undefined) {
    id = hashToken(token);
    if (idsByToken.size >= REMEMBERED_IDS) idsByToken.delete(idsByToken.keys().next().value!);
    idsByToken.set(token, id);
  }
  return id;
}

/** Reads the session cookie; a missing, unknown or expired one leaves the request anonymous. */
export async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const { db, sessionCache } = request.server;
  const now = new Date();
  const id = sessionIdOf(token);
  let session = sessionCache.lookups.get(id);
  if (session && session.expiresAt > now) {
    // The visit is recorded with others a few seconds later (at most once every 5 s per user, as GZCTF).
    if (now.getTime() - session.user.lastVisitedAt.getTime() >= VISIT_EVERY_MS) {
      session.user.lastVisitedAt = now;
      sessionCache.visits.set(session.user.id, { userId: session.user.id, ip: request.ip, at: now });
    }
  } else {
    // The lookup records the visit too (at most once every 5 s per user).
    session = await readSession(db, { id, ip: request.ip, at: now });
    if (session && session.expiresAt > now) {
      if (now.getTime() - session.user.lastVisitedAt.getTime() >= VISIT_EVERY_MS) session.user.lastVisitedAt = now;
      sessionCache.lookups.set(session);
    }
  }
  if (!session || session.expiresAt <= now) {
    if (session) await deleteSession(db, session.id);
    clearSessionCookie(request, reply);
    return;
  }
  const { id: userId, userName, email, role } = session.user;
  request.user = { id: userId, userName, email, role };
  request.sessionId = session.id;
  await slideSession(request, reply, session, token, now);
}

const VISIT_EVERY_MS = 5_000;

/**
 * Keeps this instance's session cache in step with every change: the repositories announce changes
 * made here (`sessionChanges`), which drop the cached lookups here and go to the other instances as a
 * signal; the signal drops theirs (with Redis it comes back here too, harmlessly). Visits seen on
 * cached lookups are written every few seconds in one statement, and when the server closes.
 */
function sessionCaching(app: FastifyInstance) {
  const lookups = new SessionCache();
  const visits = new Map<string, Visit>();
  app.signals.subscribe('sessions', (payload) => {
    const { userId, sessionId } = payload as { userId?: string; sessionId?: string };
    if (userId) lookups.forgetUser(userId);
    if (sessionId) lookups.forgetSession(sessionId);
  });
  // Announcements sent while this instance could not hear them never arrive.
  app.signals.onReconnect(() => lookups.clear());
  const announce = (change: { userId?: string; sessionId?: string }) =>
    void app.signals.publish('sessions', change).catch((error: unknown) => {
      // The other instances' cached lookups then end with their time to live (a minute at most).
      app.log.warn({ err: error }, 'could not announce a session change');
    });
  const onUser = (userId: string) => {
    lookups.forgetUser(userId);
    announce({ userId });
  };
  const onSession = (sessionId: string) => {
    lookups.forgetSession(sessionId);
    announce({ sessionId });
  };
  sessionChanges.on('user', onUser);
  sessionChanges.on('session', onSession);
  const flush = async () => {
    lookups.sweep();
    if (visits.size === 0) return;
    const batch = [...visits.values()];
    visits.clear();
    await recordVisits(app.db, batch).catch((error: unknown) =>
      app.log.warn({ err: error }, 'recording visits failed'),
    );
  };
  app.decorate('sessionCache', { lookups, visits, flushVisits: flush });
  const timer = setInterval(() => void flush(), VISIT_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    sessionChanges.off('user', onUser);
    sessionChanges.off('session', onSession);
    await flush();
  });
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
    sessionCaching(app);

    app.addHook('onRequest', async (request, reply) => {
      const pathname = (request.url.split('?')[0] ?? '').toLowerCase();
      if (!request.routeOptions.config.operation && !SESSION_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
        return;
      }
      await identify(request, reply);
    });

    // An answer that (re)sends a cookie is for this browser alone: an avatar or a public list marked
    // `public` would let a shared cache in front of the platform hand the session to the next caller
    // of the same address. (Cookies are written by @fastify/cookie's onSend, registered before this.)
    // A callback, not an async function: every answer passes here, and a promise each costs more.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (reply.hasHeader('set-cookie')) {
        const cacheControl = reply.getHeader('cache-control');
        if (cacheControl === undefined) reply.header('cache-control', 'private');
        else reply.header('cache-control', String(cacheControl).replace(/\bpublic\b/i, 'private'));
      }
      done(null, payload);
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
  { name: 'auth', dependencies: ['db', 'errors', 'signals'] },
);
