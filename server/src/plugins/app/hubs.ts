import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthLevel } from '../../contract/contract';
import { close, invocation, isJsonHandshake, negotiateResponse, ping, frame, readHandshake } from '../../lib/signalr';
import { bus } from '../../lib/bus';
import { identifySessions } from '../../modules/accounts';
import { findGame } from '../../modules/games';
import { HttpError } from '../../lib/http-error';
import { decimalId } from '../../lib/ids';
import { hasRole } from './auth';
import { addressScope } from './brute-force';
import type { NewLogRow } from './logs.repository';

type HubName = 'user' | 'monitor' | 'admin';
/** The part of a `ws` socket the hubs use. */
interface WebSocket {
  send(data: string): void;
  close(): void;
}

const HUB_ROLE: Record<HubName, AuthLevel> = { user: 'anon', monitor: 'Monitor', admin: 'Admin' };
const PING_MS = 15_000;
/** A change to a socket's user or session is checked again this long after its announcement. */
const RECHECK_AFTER_MS = 2_000;
/** A socket that has not sent its handshake by then is closed: an open socket costs a timer and memory. */
const HANDSHAKE_MS = 15_000;
/** The refusal when a socket's admission could not be decided (the database failed). */
const UNAVAILABLE = 'Service unavailable, please try again later';
/**
 * Open hub sockets one client may hold on an instance: a signed-in user (tabs, a monitor's screens),
 * or a signed-out address by its /64, which a campus or an event's network shares. Only opening a
 * socket counts in the API's request limit, and each socket holds memory and a timer until it closes.
 */
export const HUB_SOCKETS_PER_USER = 32;
export const HUB_SOCKETS_PER_ADDRESS = 256;

/** Held messages per unheard group at most (a second's worth; beyond it the newest are dropped). */
const HELD_MAX = 10_000;
/** The hub whose groups' messages are held while nobody listens (see `unheard` in hubs()). */
const HELD_HUB: HubName = 'monitor';
/** How often groups whose messages are held are asked whether anyone listens now. */
const PROBE_MS = 1_000;

interface Delivery {
  hub: HubName;
  gameId: number | null;
  target: string;
  argument: unknown;
}

type Message = Pick<Delivery, 'target' | 'argument'>;

// Hub payloads carry DateTimeOffset values as ISO strings (reference §6), unlike the REST API's ms.
const withIsoTime = <T extends { time: number }>(value: T) => ({ ...value, time: new Date(value.time).toISOString() });

/**
 * `/hub/user?game=`, `/hub/monitor?game=` and `/hub/admin`: SignalR JSON-protocol hubs over
 * WebSocket (lib/signalr.ts), so GZCTF's client and @microsoft/signalr connect unchanged. Only
 * server → client methods exist. What the application bus (lib/bus.ts) emits is delivered to the
 * sockets of the game's group; with REDIS_URL it goes through the group's Redis channel first, so
 * every instance behind a load balancer with sockets in that group delivers it to its own (and a
 * single instance never delivers twice). The bus is in-process: this relay is what carries its
 * messages to the sockets of other instances.
 */
async function hubs(app: FastifyInstance) {
  const groups = new Map<string, Set<WebSocket>>();
  const groupKey = (hub: HubName, gameId: number | null) => `${hub}:${gameId ?? ''}`;

  /** Frames a message and sends it to the group's sockets on this instance, if it has any. */
  const sendToGroup = (key: string, target: string, argument: unknown) => {
    const group = groups.get(key);
    if (!group?.size) return;
    const message = invocation(target, argument);
    for (const socket of group) socket.send(message);
  };
  const deliverLocally = ({ hub, gameId, target, argument }: Delivery) =>
    sendToGroup(groupKey(hub, gameId), target, argument);

  let deliver = deliverLocally;
  /** Publishes what is still waiting (on close). */
  let flush = () => {};
  /** Called before a group's first socket joins, and after its last one left. */
  let watch = async (_group: string) => {};
  let unwatch = (_group: string) => {};
  let stopProbing = () => {};
  const subscriber = app.redis?.duplicate();
  if (app.redis && subscriber) {
    const redis = app.redis;
    subscriber.on('error', (error: Error) => app.log.warn({ err: error }, 'hub subscriber error'));
    // Connected before the first socket can join, so its handshake waits for its group's subscription.
    await subscriber.ping();
    // One channel per group, subscribed to only while this instance has a socket in it: an instance
    // then never receives (nor parses) what nobody it serves listens to. With one channel for all,
    // every instance parsed every judged submission of every game though no monitor was connected
    // (in the submission profile, 7 % of the server's CPU).
    const channelPrefix = `${app.redisPrefix}hubs:`;
    subscriber.on('message', (channel: string, text: string) => {
      const key = channel.slice(channelPrefix.length);
      for (const { target, argument } of JSON.parse(text) as Message[]) {
        sendToGroup(key, target, argument);
      }
    });
    // What is emitted in one turn of the event loop (a judged batch emits two messages per
    // submission) goes out as one published array per group, in order.
    let outbox: Delivery[] = [];
    const channelOf = (key: string) => `${channelPrefix}${key}`;
    /**
     * Groups whose last publication reached no instance (PUBLISH answers how many subscribers got
     * it): a game nobody monitors still has every judged submission and event emitted. Their
     * messages are held here, neither framed nor published, and once a second an empty publication
     * asks whether anyone listens now: if so, what was held goes out (up to a second late, to a
     * client that has just subscribed; the clients merge repeats), else it is dropped, since nobody
     * subscribed before it was emitted. Publishing everything had cost a tenth of the server's main
     * thread under a stream of wrong flags (the submission profile, issue 15), for messages that
     * reached nobody. Only the monitor groups are held: their pages merge a repeat of what they
     * listed, while a player's notices show as they arrive (one from before the page opened must not).
     * The notices and the admin's log lines are few.
     */
    const unheard = new Map<string, Message[]>();
    const heard = (key: string, before: Message[] = []) => {
      const held = [...before, ...(unheard.get(key) ?? [])];
      unheard.delete(key);
      if (held.length) publishTo(redis.pipeline(), key, held).exec().catch(publishFailed);
    };
    const publishTo = (pipeline: ReturnType<typeof redis.pipeline>, key: string, messages: Message[]) =>
      pipeline.publish(channelOf(key), JSON.stringify(messages));
    const publishFailed = (error: unknown) =>
      // Not through the logger: log lines are delivered here too, so a failure would feed itself.
      process.stderr.write(`hub publish failed: ${String(error)}\n`);
    /** Answers in the order sent: the last one says whether the group is heard now. */
    const learn = (keys: string[], results: Array<[Error | null, unknown]> | null) =>
      results?.forEach(([error, receivers], index) => {
        const key = keys[index]!;
        if (error) return;
        if (receivers === 0) {
          if (!unheard.has(key) && key.startsWith(`${HELD_HUB}:`)) unheard.set(key, []);
        } else if (unheard.has(key)) heard(key);
      });
    // While Redis is unreachable, this instance's own clients still get what it emits (the other
    // instances' clients miss it until Redis is back: nothing reaches them without it).
    const publish = () => {
      const batch = outbox;
      outbox = [];
      const local = () => {
        for (const delivery of batch) deliverLocally(delivery);
      };
      if (redis.status !== 'ready') return local();
      // The receivers frame the messages: only those with sockets in the group do it (a frame is a
      // JSON text, which JSON would have escaped once more on the way).
      const byGroup = new Map<string, Message[]>();
      for (const { hub, gameId, target, argument } of batch) {
        const key = groupKey(hub, gameId);
        const messages = byGroup.get(key) ?? [];
        if (messages.push({ target, argument }) === 1) byGroup.set(key, messages);
      }
      // Made only when something goes out: usually nothing does (nobody monitors the game).
      let pipeline: ReturnType<typeof redis.pipeline> | undefined;
      const keys: string[] = [];
      for (const [key, messages] of byGroup) {
        const held = unheard.get(key);
        // A group with sockets here is heard (this instance subscribes to it).
        if (held && !groups.get(key)?.size) {
          if (held.length < HELD_MAX) held.push(...messages.slice(0, HELD_MAX - held.length));
          continue;
        }
        unheard.delete(key);
        publishTo((pipeline ??= redis.pipeline()), key, [...(held ?? []), ...messages]);
        keys.push(key);
      }
      if (!pipeline) return;
      pipeline.exec().then(
        (results) => learn(keys, results),
        (error: unknown) => {
          publishFailed(error);
          local();
        },
      );
    };
    /** Once a second: is anyone listening to a group whose messages are held? */
    const probe = () => {
      if (redis.status !== 'ready') return;
      const pipeline = redis.pipeline();
      const sent = new Map<string, Message[]>();
      for (const [key, held] of unheard) {
        // Nothing waiting: forgotten, and the group's next message is published and tells.
        if (held.length === 0) unheard.delete(key);
        else {
          sent.set(key, held);
          unheard.set(key, []);
          pipeline.publish(channelOf(key), '[]');
        }
      }
      if (sent.size === 0) return;
      pipeline.exec().then((results) => {
        [...sent].forEach(([key, held], index) => {
          const [error, receivers] = results?.[index] ?? [null, 0];
          // Nobody subscribed when the probe arrived, so nobody had when these were emitted; what
          // came after the probe waits for the next one.
          if (!error && receivers === 0) return;
          heard(key, held);
        });
      }, publishFailed);
    };
    const prober = setInterval(probe, PROBE_MS);
    prober.unref();
    stopProbing = () => clearInterval(prober);
    flush = () => outbox.length && publish();
    deliver = (delivery) => {
      if (outbox.push(delivery) === 1) setImmediate(flush);
    };
    // A socket is told its handshake succeeded only once the subscription is in place, so it misses
    // nothing published after that.
    watch = (group) => {
      const subscribed = subscriber.subscribe(`${channelPrefix}${group}`).then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error }, 'hub subscribe failed'),
      );
      // While Redis is down the subscription waits in ioredis's queue until it is back; the socket
      // does not wait with it (it gets this instance's messages meanwhile, as publish() says).
      return subscriber.status === 'ready' ? subscribed : Promise.resolve();
    };
    unwatch = (group) => {
      subscriber.unsubscribe(`${channelPrefix}${group}`).catch(() => undefined);
    };
    // ioredis renews the subscriptions it holds after a reconnection, but one asked for while Redis
    // was down may have failed: every group with sockets here is subscribed again (a repeat is harmless).
    subscriber.on('ready', () => {
      for (const group of groups.keys()) void watch(group);
    });
  }

  const onNotice = ({ gameId, notice }: { gameId: number; notice: { time: number } }) =>
    deliver({ hub: 'user', gameId, target: 'ReceivedGameNotice', argument: withIsoTime(notice) });
  const onEvent = ({ gameId, event }: { gameId: number; event: { time: number } }) =>
    deliver({ hub: 'monitor', gameId, target: 'ReceivedGameEvent', argument: withIsoTime(event) });
  const onSubmission = ({ gameId, submission }: { gameId: number; submission: { time: number } }) =>
    deliver({ hub: 'monitor', gameId, target: 'ReceivedSubmissions', argument: withIsoTime(submission) });
  const onLog = (entry: NewLogRow) =>
    deliver({
      hub: 'admin',
      gameId: null,
      target: 'ReceivedLog',
      argument: {
        time: (entry.at instanceof Date ? entry.at : new Date()).toISOString(),
        name: entry.userName ?? null,
        level: entry.level,
        ip: entry.ip ?? null,
        msg: entry.message,
        status: entry.status ?? null,
      },
    });
  app.logSink.on('entry', onLog);
  bus.on('noticePublished', onNotice);
  bus.on('gameEvent', onEvent);
  bus.on('submissionJudged', onSubmission);

  /** Who may connect; the game (user and monitor hubs) must exist. */
  async function admit(hub: HubName, request: FastifyRequest): Promise<{ gameId: number | null } | string> {
    if (!hasRole(request.user ?? null, HUB_ROLE[hub])) return 'Unauthorized';
    if (hub === 'admin') return { gameId: null };
    const gameId = decimalId((request.query as { game?: unknown }).game);
    if (gameId === undefined || !(await findGame(app.db, gameId))) return 'Game not found';
    return { gameId };
  }

  /** Subscriptions in flight, by group: a socket joins once its group's is in place. */
  const watching = new Map<string, Promise<void>>();
  /** Adds the socket to its group, first watching the group's channel if the group is new here. */
  const join = async (key: string, socket: WebSocket): Promise<void> => {
    let group = groups.get(key);
    if (!group) {
      groups.set(key, (group = new Set()));
      watching.set(
        key,
        watch(key).finally(() => watching.delete(key)),
      );
    }
    group.add(socket);
    await watching.get(key);
  };
  const leave = (key: string, socket: WebSocket) => {
    const group = groups.get(key);
    if (!group?.delete(socket) || group.size > 0) return;
    groups.delete(key);
    unwatch(key);
  };

  /**
   * Open sockets by the user and the session that opened them, with what admitted them. A socket is
   * admitted once, when it opens; a change to its user or session (a role taken away, a ban, a
   * sign-out, on any instance) has it checked again, and closed if it would no longer be admitted.
   * A session that merely slid its expiry passes the check and keeps its socket.
   */
  const owners = new Map<string, Set<WebSocket>>();
  const admittedAs = new Map<WebSocket, { hub: HubName; sessionId: string; ip: string }>();
  const ownerKeys = (request: FastifyRequest) =>
    request.user && request.sessionId ? [`user:${request.user.id}`, `session:${request.sessionId}`] : [];
  const own = (keys: string[], socket: WebSocket, hub: HubName, request: FastifyRequest) => {
    if (keys.length === 0 || !request.sessionId) return;
    admittedAs.set(socket, { hub, sessionId: request.sessionId, ip: request.ip });
    for (const key of keys) {
      let set = owners.get(key);
      if (!set) owners.set(key, (set = new Set()));
      set.add(socket);
    }
  };
  const disown = (keys: string[], socket: WebSocket) => {
    admittedAs.delete(socket);
    for (const key of keys) {
      const set = owners.get(key);
      if (set?.delete(socket) && set.size === 0) owners.delete(key);
    }
  };
  const recheck = async (socket: WebSocket) => {
    const admitted = admittedAs.get(socket);
    if (!admitted) return;
    const now = new Date();
    const [session] = await identifySessions(app.db, [{ id: admitted.sessionId, ip: admitted.ip, at: now }]);
    const still = session !== undefined && session.expiresAt > now && hasRole(session.user, HUB_ROLE[admitted.hub]);
    if (!still) socket.close();
  };
  app.signals.subscribe('sessions', (payload) => {
    const { userId, sessionId } = payload as { userId?: string; sessionId?: string };
    const keys = [...(userId ? [`user:${userId}`] : []), ...(sessionId ? [`session:${sessionId}`] : [])];
    const affected = new Set(keys.flatMap((key) => [...(owners.get(key) ?? [])]));
    // Announced from inside the changing transaction (session-cache.ts), maybe before its commit: checked
    // at once and again once it has surely committed. A check that fails closes: the reconnection is
    // admitted afresh.
    const check = () => {
      for (const socket of affected) recheck(socket).catch(() => socket.close());
    };
    check();
    setTimeout(check, RECHECK_AFTER_MS).unref();
  });

  /** Open sockets (admitted or not yet) by the client that opened them. */
  const openByClient = new Map<string, number>();
  const clientOf = (request: FastifyRequest) =>
    request.user ? `user:${request.user.id}` : `address:${addressScope(request.ip)}`;
  const socketLimit = (request: FastifyRequest) => (request.user ? HUB_SOCKETS_PER_USER : HUB_SOCKETS_PER_ADDRESS);

  for (const hub of Object.keys(HUB_ROLE) as HubName[]) {
    app.post(`/hub/${hub}/negotiate`, { config: { clientLimited: true } }, async (request, reply) => {
      const admitted = await admit(hub, request);
      if (typeof admitted === 'string') return reply.status(admitted === 'Unauthorized' ? 401 : 404).send();
      return negotiateResponse(randomUUID(), randomUUID());
    });
    app.route({
      method: 'GET',
      url: `/hub/${hub}`,
      config: { clientLimited: true },
      // A plain GET (no upgrade) is told what the address is for, as every error: {title, status}.
      handler: async () => {
        throw new HttpError(400, 'error.upgradeRequired');
      },
      // Refused before the upgrade, as an HTTP answer the client can read.
      preValidation: async (request) => {
        if ((openByClient.get(clientOf(request)) ?? 0) >= socketLimit(request)) {
          throw new HttpError(429, 'error.tooManyRequests', { seconds: 10 });
        }
      },
      wsHandler: (socket, request) => {
        const client = clientOf(request);
        openByClient.set(client, (openByClient.get(client) ?? 0) + 1);
        let joined: string | undefined;
        let handshaken = false;
        let closed = false;
        const timer = setInterval(() => socket.send(ping()), PING_MS);
        const handshakeTimer = setTimeout(() => {
          if (!handshaken) socket.close();
        }, HANDSHAKE_MS);
        const keys = ownerKeys(request);
        own(keys, socket, hub, request);
        // Without a handler a failed lookup (the database restarting) would be an unhandled rejection,
        // which ends the process and every socket on it; the socket is refused instead, and may retry.
        const admission = admit(hub, request).catch((error: unknown) => {
          request.log.warn({ err: error }, 'hub admission failed');
          return UNAVAILABLE;
        });
        let heard = false;
        socket.on('message', (data: Buffer) => {
          // Only the first message is read: it is the handshake, and after it a client has nothing to
          // say (no client → server methods; pings need no answer). Set before anything else, so a
          // socket refused or still waiting for its admission costs nothing per further message.
          if (heard) return;
          heard = true;
          const first = readHandshake(data);
          void admission.then((admitted) => {
            // Gone while its admission was checked: it must not join a group it can never leave.
            if (closed) return;
            if (!isJsonHandshake(first)) {
              socket.send(frame({ error: 'Only the JSON protocol, version 1, is supported.' }));
              socket.close();
              return;
            }
            if (typeof admitted === 'string') {
              socket.send(frame({}));
              socket.send(close(admitted, admitted === UNAVAILABLE));
              socket.close();
              return;
            }
            handshaken = true;
            joined = groupKey(hub, admitted.gameId);
            void join(joined, socket).then(() => {
              if (!closed) socket.send(frame({}));
            });
          });
        });
        socket.on('close', () => {
          closed = true;
          const open = (openByClient.get(client) ?? 1) - 1;
          if (open > 0) openByClient.set(client, open);
          else openByClient.delete(client);
          clearInterval(timer);
          clearTimeout(handshakeTimer);
          disown(keys, socket);
          if (joined) leave(joined, socket);
        });
      },
    });
  }

  app.addHook('onClose', async () => {
    app.logSink.off('entry', onLog);
    bus.off('noticePublished', onNotice);
    bus.off('gameEvent', onEvent);
    bus.off('submissionJudged', onSubmission);
    for (const group of groups.values()) for (const socket of group) socket.close();
    stopProbing();
    flush();
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  });
}

export default fp(hubs, { name: 'hubs', dependencies: ['cache', 'logs', 'signals', 'websocket'] });
