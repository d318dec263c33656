import type net from 'node:net';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import type { Cache } from '../../plugins/app/cache';
import { CaptureSpace, startCapture, type CaptureRecorder } from './capture';
import * as repo from './instances.repository';
import { DialMemory, dialFirst, type Endpoint } from './proxy.dial';
import { MemoryBudget, ReadBuffers } from './proxy.slabs';

/** What the proxy knows of a container, cached so probing and reconnecting cost no query. */
export type { ContainerSocket };

export interface ProxyTarget {
  rowId: string;
  /** An admin's test container (reached through /api/proxy/noinst/{id}). */
  noInstance: boolean;
  candidates: Endpoint[];
  /** Set when this container's connections are recorded. */
  capture: {
    challengeId: number;
    participationId: number;
    meta: {
      challenge: string;
      challengeId: number;
      team: string;
      teamId: number;
      containerId: string;
      flag: string | null;
    };
  } | null;
}

export interface ProxyOptions {
  /** Connections one container may have at once (GZCTF: 32). */
  maxConnections?: number;
  /** A connection's longest life (GZCTF: 30 minutes). */
  sessionMs?: number;
  /** Ping interval; a client that answered no ping since the last one is cut off (half-open). */
  heartbeatMs?: number;
  /** How long dialing one address may take before the next is tried (or 418). */
  dialTimeoutMs?: number;
  /** How often live sessions are checked against the database (containers destroyed elsewhere). */
  checkMs?: number;
  /** Bytes all sessions may hold together (default: env PROXY_MEMORY_MB). */
  memoryBytes?: number;
  /**
   * How long a session that ended normally (either side closed) may take to hand the other side
   * what is still on its way, before both sockets are cut.
   */
  closeGraceMs?: number;
}

export interface ProxyDeps {
  db: Db;
  env: Env;
  cache: Cache;
  log: { debug(object: object, message: string): void; warn(object: object, message: string): void };
}

interface Session {
  ws: WebSocket;
  tcp: net.Socket;
  end(reason: string, code?: number): void;
  /** Bytes waiting in the server for each side, for tests of back-pressure. */
  buffered(): { toContainer: number; toClient: number };
}

const TARGET_TTL_MS = 10 * 60_000;
/**
 * Unknown ids are remembered here, in this process, for a minute (a daemon keeps pinging an instance
 * that is gone) and at most this many: random ids would otherwise fill the shared cache for nothing.
 */
const UNKNOWN_TTL_MS = 60_000;
const UNKNOWN_CAPACITY = 10_000;
/** Unknown ids a client (an address, an IPv6 /64) may ask for a minute before it must wait. */
export const MISSES_PER_MINUTE = 120;
/**
 * Memory held for the client (read from the container, not yet sent) above which the container is
 * not read, and below which reading resumes: enough to keep the connection busy. The process-wide
 * budget (`memoryBytes`) bounds the sum: once it is spent, every session keeps to the small share
 * below (reads are that small too, proxy.slabs.ts), so each still moves, in smaller steps.
 */
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
const SHARE_HIGH_WATER = 64 * 1024;
const SHARE_LOW_WATER = 16 * 1024;
/**
 * What the container may still send, read and dropped, after the client has gone: enough for its
 * answer to the client's last bytes to leave its socket (a reset would discard those bytes).
 */
const DROP_AFTER_CLIENT_CLOSE = 1024 * 1024;
/** An end forced on a session (an error, a limit, a removal): the close frame alone, then the socket is cut. */
const ABRUPT_CLOSE_MS = 1_000;

/** A dialed container socket; what it reads waits (paused) until the bridge takes over. */
interface ContainerSocket {
  tcp: net.Socket;
  /** Takes one chunk; false pauses reading. */
  deliver: ((chunk: Buffer) => boolean) | undefined;
  early: Buffer[];
}
// A counter is dropped when nothing touched it this long (GZCTF slides it 10 h): a crashed instance's
// connections stop counting eventually.
const COUNTER_TTL_MS = 10 * 3_600_000;

/**
 * PlatformProxy (reference §5.11): a WebSocket from the player's daemon bridged to the container's
 * TCP port, bytes relayed both ways with back-pressure (a slow side pauses the other instead of
 * making the server buffer), optionally recorded (§5.10). The container id is the only credential,
 * so the target comes from the stored row alone, never from anything in the request.
 */
export class ContainerProxy {
  private readonly sessions = new Map<string, Set<Session>>();
  /** Ids recently found unknown, with when that expires (insertion order: oldest first). */
  private readonly unknown = new Map<string, number>();
  private readonly memory = new DialMemory();
  /**
   * Reads of up to 1 MiB: a quarter of the system calls and messages per byte of 64 KiB reads, which
   * measured about 1.5× the throughput of one connection.
   */
  private readonly buffers: ReadBuffers;
  private readonly budget: MemoryBudget;
  /** Free space of the capture volume, shared by every recorder. */
  private readonly space: CaptureSpace;
  /**
   * Sessions ended but still handing over their last bytes (by container, oldest first), as what
   * cuts them off. Their slots are free again, so a container keeps at most `maxConnections` of
   * them: reconnecting in a loop cannot pile up sockets that wait out the grace period.
   */
  private readonly closing = new Map<string, Set<() => void>>();
  private readonly options: Required<ProxyOptions>;
  private timer: NodeJS.Timeout | undefined;
  private dials = 0;

  constructor(
    private readonly deps: ProxyDeps,
    options: ProxyOptions = {},
  ) {
    const settings = deps.env.containers;
    this.options = {
      maxConnections: options.maxConnections ?? 32,
      sessionMs: options.sessionMs ?? 30 * 60_000,
      heartbeatMs: options.heartbeatMs ?? 30_000,
      dialTimeoutMs: options.dialTimeoutMs ?? 3_000,
      checkMs: options.checkMs ?? 5_000,
      memoryBytes: options.memoryBytes ?? settings.proxyMemoryBytes,
      // ws's own closing handshake allows as long.
      closeGraceMs: options.closeGraceMs ?? 30_000,
    };
    this.budget = new MemoryBudget(this.options.memoryBytes);
    this.buffers = new ReadBuffers(this.budget);
    this.space = new CaptureSpace(deps.env.dataDir, {
      minFreeBytes: settings.capture.minFreeBytes,
      onChange: (low, freeBytes) =>
        deps.log.warn(
          { freeMiB: Math.floor(freeBytes / 1024 / 1024) },
          low
            ? 'traffic capture paused: the data volume has less free space than CAPTURE_MIN_FREE_MB, or few free files'
            : 'traffic capture resumed: the data volume has room again',
        ),
    });
  }

  get enabled(): boolean {
    return this.deps.env.portMapping === 'PlatformProxy';
  }

  /** The container behind an id, or undefined. Known ids are cached in the shared cache, unknown ones here. */
  async target(id: string, noInstance: boolean): Promise<ProxyTarget | undefined> {
    if ((this.unknown.get(id) ?? 0) > Date.now()) return undefined;
    const key = `proxy:target:${id}`;
    const cached = await this.deps.cache.get(key);
    let target: ProxyTarget | undefined;
    if (cached !== undefined) {
      // '' is how an earlier version cached an unknown id (still in a shared Redis during an upgrade).
      target = cached === '' ? undefined : (JSON.parse(cached) as ProxyTarget);
    } else {
      target = await this.load(id);
      if (target) await this.deps.cache.set(key, JSON.stringify(target), TARGET_TTL_MS);
      else this.rememberUnknown(id);
    }
    return target && target.noInstance === noInstance ? target : undefined;
  }

  /**
   * Counts a client's request for an unknown id; false once it asked for more than
   * `MISSES_PER_MINUTE` in a minute. The proxy is spared the API's rate limits (daemons ping it), so
   * without this anyone could make it look ids up as fast as they can send them.
   */
  async missAllowed(client: string): Promise<boolean> {
    return (await this.deps.cache.increment(`proxy:misses:${client}`, 1, 60_000)) <= MISSES_PER_MINUTE;
  }

  private rememberUnknown(id: string): void {
    this.unknown.delete(id);
    if (this.unknown.size >= UNKNOWN_CAPACITY) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(id, Date.now() + UNKNOWN_TTL_MS);
  }

  /**
   * Whether the target's row is still there, asked before each dial: a cached target outlives a row
   * removed without this instance hearing of it (its team or game deleted, another instance's
   * destroy with no session here), and its address may since be another container's.
   */
  async stillThere(rowId: string): Promise<boolean> {
    if ((await repo.existingContainerIds(this.deps.db, [rowId])).has(rowId)) return true;
    await this.closeContainer(rowId);
    return false;
  }

  /** Counts a connection in; false when the container has its maximum already. */
  async admit(id: string): Promise<boolean> {
    const count = await this.deps.cache.increment(`proxy:connections:${id}`, 1, COUNTER_TTL_MS);
    if (count <= this.options.maxConnections) return true;
    await this.release(id);
    return false;
  }

  async release(id: string): Promise<void> {
    await this.deps.cache.increment(`proxy:connections:${id}`, -1, COUNTER_TTL_MS).catch(() => undefined);
  }

  /** Opens the TCP connection to the container (before the WebSocket is accepted, so failure is a 418). */
  async dial(target: ProxyTarget): Promise<ContainerSocket> {
    this.dials += 1;
    const ordered = this.memory.order(target.rowId, target.candidates);
    const container: Omit<ContainerSocket, 'tcp'> = { deliver: undefined, early: [] };
    // The slab waiting for the socket's next read counts against the budget as long as the socket lives.
    const reads = this.budget.account();
    const onread = this.buffers.onread((chunk) => {
      if (container.deliver) return container.deliver(chunk);
      // A greeting sent before the WebSocket is accepted waits for it.
      container.early.push(chunk);
      return false;
    }, reads);
    try {
      const { socket, index } = await dialFirst(ordered, this.options.dialTimeoutMs, { onread });
      this.memory.remember(target.rowId, target.candidates, ordered, index);
      socket.once('close', () => reads.close());
      return Object.assign(container, { tcp: socket });
    } catch (error) {
      reads.close();
      throw error;
    }
  }

  /** Relays between an accepted WebSocket and a connected TCP socket until either side ends. */
  bridge(ws: WebSocket, container: ContainerSocket, target: ProxyTarget, client: Endpoint): void {
    const { tcp } = container;
    // What this session holds: read for the client and not yet sent, sent by the client and not yet written.
    const memory = this.budget.account();
    const captureMemory = target.capture ? this.budget.account() : undefined;
    const recorder: CaptureRecorder | undefined = target.capture
      ? startCapture(
          {
            dataDir: this.deps.env.dataDir,
            challengeId: target.capture.challengeId,
            participationId: target.capture.participationId,
            containerRowId: target.rowId,
          },
          {
            client: { address: client.host, port: client.port },
            container: { address: tcp.remoteAddress ?? '', port: tcp.remotePort ?? 0 },
          },
          target.capture.meta,
          {
            maxFileBytes: this.deps.env.containers.capture.maxFileBytes,
            space: this.space,
            memory: captureMemory,
          },
        )
      : undefined;
    let ended = false;
    let alive = true;
    // The WebSocket is not read while the container does not take what it was sent.
    let clientPaused = false;
    const limit = setTimeout(() => session.end('time limit', 1008), this.options.sessionMs);
    const heartbeat = setInterval(() => {
      // A client that is not read cannot have its pong read either: it is judged again once read.
      if (clientPaused) return;
      if (!alive) return session.end('no answer to ping', 1001);
      alive = false;
      ws.ping();
    }, this.options.heartbeatMs);
    limit.unref();
    heartbeat.unref();

    /** Ends the relaying (once) and frees the slot; the memory goes when both sockets are closed. */
    const stop = (reason: string): boolean => {
      if (ended) return false;
      ended = true;
      clearTimeout(limit);
      clearInterval(heartbeat);
      this.unregister(target.rowId, session);
      void this.release(target.rowId);
      void recorder
        ?.close()
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'capture not saved'))
        .finally(() => captureMemory?.close());
      this.deps.log.debug(
        { container: target.rowId, reason, tx: tcp.bytesWritten, rx: tcp.bytesRead },
        'proxy session ended',
      );
      return true;
    };
    let open = (ws.readyState === ws.CLOSED ? 0 : 1) + (tcp.closed ? 0 : 1);
    let cutoff: NodeJS.Timeout | undefined;
    const cut = () => {
      tcp.destroy();
      ws.terminate();
    };
    /** Both sockets are cut if they are not closed within `ms`. */
    const closeWithin = (ms: number) => {
      if (open === 0 || cutoff) return;
      cutoff = setTimeout(cut, ms);
      cutoff.unref();
      this.linger(target.rowId, cut);
    };
    /** Both sockets are closed: nothing of the session is held any more. */
    const finish = () => {
      clearTimeout(cutoff);
      this.unlinger(target.rowId, cut);
      memory.close();
    };
    const settle = () => {
      open -= 1;
      if (open === 0) finish();
    };

    const session: Session = {
      ws,
      tcp,
      end: (reason, code = 1000) => {
        if (!stop(reason)) return;
        tcp.destroy();
        if (ws.readyState === ws.OPEN) ws.close(code, reason);
        closeWithin(ABRUPT_CLOSE_MS);
      },
      buffered: () => ({ toContainer: tcp.writableLength, toClient: ws.bufferedAmount }),
    };
    this.register(target.rowId, session);

    // The container finished: what it sent may still wait for the client (a slow link, and the tail
    // may be the flag), and the close frame goes out after it. The client's last messages are read
    // (so its closing handshake completes) and dropped; writes already made reach the container
    // before the FIN, as the socket ends itself (no half-open).
    const containerDone = () => {
      if (!stop('container closed')) return;
      clientPaused = false;
      ws.resume();
      if (ws.readyState === ws.OPEN) ws.close(1000, 'container closed');
      closeWithin(this.options.closeGraceMs);
    };
    // The client went: what it sent may still wait for the container, so the socket is ended, not
    // destroyed. The container's output is read and dropped meanwhile: closing a socket with unread
    // data resets the connection, and the reset would discard what is still on its way.
    const clientDone = () => {
      if (!stop('client closed')) return;
      tcp.end();
      paused = false;
      tcp.resume();
      closeWithin(this.options.closeGraceMs);
    };

    // Container → client: each TCP read becomes one binary message. Reading pauses while the
    // chunks waiting to reach the client hold more than the high water mark, and resumes as their
    // sends complete; a sent chunk goes back to its pool (proxy.slabs.ts).
    // (A socket paused by its read callback does not report isPaused(), hence the flag.)
    let paused = false;
    let held = 0;
    const highWater = () => (this.budget.pressed ? SHARE_HIGH_WATER : HIGH_WATER);
    const lowWater = () => (this.budget.pressed ? SHARE_LOW_WATER : LOW_WATER);
    let dropped = 0;
    container.deliver = (chunk) => {
      if (ended) {
        // Read and dropped after the client went (clientDone), but only so much: a container that
        // streams without end would otherwise keep the proxy copying for the whole grace period
        // (in the proxy bench, 32 closed sessions to endless streams took a third of the throughput
        // of the next round). Past that the socket is cut once the client's last bytes have left.
        dropped += chunk.length;
        this.buffers.release(chunk);
        if (dropped < DROP_AFTER_CLIENT_CLOSE) return true;
        if (tcp.writableFinished) tcp.destroy();
        else tcp.once('finish', () => tcp.destroy());
        return false;
      }
      recorder?.fromContainer(chunk);
      const size = this.buffers.held(chunk);
      held += size;
      memory.add(size);
      ws.send(chunk, { binary: true }, () => {
        held -= size;
        memory.add(-size);
        this.buffers.release(chunk);
        if (paused && held < lowWater()) {
          paused = false;
          tcp.resume();
        }
      });
      paused = held > highWater();
      return !paused;
    };
    for (const chunk of container.early.splice(0)) container.deliver(chunk);
    if (!paused) tcp.resume();
    // Client → container: every message's payload, text or binary, raw. While the container does
    // not take what it was given, the WebSocket is not read further (the client's TCP window fills):
    // a session holds about one message (at most 1 MiB) for the container.
    ws.on('message', (data: Buffer) => {
      if (ended) return;
      // Anything the client sends shows it is there, also while its pongs wait behind the data.
      alive = true;
      recorder?.fromClient(data);
      const size = data.length;
      memory.add(size);
      if (tcp.write(data, () => memory.add(-size))) return;
      clientPaused = true;
      ws.pause();
    });
    tcp.on('drain', () => {
      if (ended || !clientPaused) return;
      clientPaused = false;
      // Pongs that waited while the client was not read are read now: it is judged from here on.
      alive = true;
      ws.resume();
    });
    tcp.on('end', containerDone);
    tcp.on('close', containerDone);
    tcp.on('error', () => session.end('container error', 1011));
    ws.on('close', clientDone);
    ws.on('error', () => session.end('client error'));
    ws.on('pong', () => (alive = true));
    // Registered after the handlers above, so a session ended by a socket's close has its cut-off
    // set before this counts that close.
    tcp.once('close', settle);
    ws.once('close', settle);
    // The container may have finished before the WebSocket was accepted (its last bytes in `early`).
    if (tcp.readableEnded || tcp.closed) containerDone();
    if (ws.readyState === ws.CLOSED) clientDone();
    if (open === 0) finish();
  }

  /** Ends a container's sessions here and forgets what was cached of it (it was destroyed). */
  async closeContainer(rowId: string): Promise<void> {
    for (const session of [...(this.sessions.get(rowId) ?? [])]) session.end('container destroyed', 1001);
    this.memory.forget(rowId);
    await this.deps.cache.delete(`proxy:target:${rowId}`).catch(() => undefined);
  }

  /**
   * Live sessions (of one container, or all), what they hold in memory, connections dialed so far,
   * and the bytes counted against the process-wide budget (every session's, capture queues).
   */
  stats(rowId?: string): {
    sessions: number;
    buffered: Array<{ toContainer: number; toClient: number }>;
    dials: number;
    memory: number;
  } {
    const sessions = rowId
      ? [...(this.sessions.get(rowId) ?? [])]
      : [...this.sessions.values()].flatMap((set) => [...set]);
    return {
      sessions: sessions.length,
      buffered: sessions.map((session) => session.buffered()),
      dials: this.dials,
      memory: this.budget.bytes,
    };
  }

  /** Checks live sessions against the database, so a container destroyed by another instance closes here too. */
  start(): void {
    this.timer = setInterval(() => {
      const ids = [...this.sessions.keys()];
      if (ids.length === 0) return;
      repo
        .existingContainerIds(this.deps.db, ids)
        .then(async (existing) => {
          for (const id of ids) if (!existing.has(id)) await this.closeContainer(id);
        })
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'proxy session check failed'));
    }, this.options.checkMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.buffers.close();
    for (const set of this.closing.values()) for (const cut of [...set]) cut();
    this.closing.clear();
    for (const set of this.sessions.values()) for (const session of [...set]) session.end('server closing', 1001);
  }

  private register(rowId: string, session: Session): void {
    const set = this.sessions.get(rowId) ?? new Set<Session>();
    set.add(session);
    this.sessions.set(rowId, set);
  }

  private unregister(rowId: string, session: Session): void {
    const set = this.sessions.get(rowId);
    set?.delete(session);
    if (set?.size === 0) this.sessions.delete(rowId);
  }

  private linger(rowId: string, cut: () => void): void {
    const set = this.closing.get(rowId) ?? new Set<() => void>();
    set.add(cut);
    this.closing.set(rowId, set);
    if (set.size <= this.options.maxConnections) return;
    const oldest = set.values().next().value!;
    this.unlinger(rowId, oldest);
    oldest();
  }

  private unlinger(rowId: string, cut: () => void): void {
    const set = this.closing.get(rowId);
    set?.delete(cut);
    if (set?.size === 0) this.closing.delete(rowId);
  }

  private async load(id: string): Promise<ProxyTarget | undefined> {
    const row = await repo.findProxyTarget(this.deps.db, id);
    if (!row || row.container.status !== 'Running') return undefined;
    const { container, instance, challenge, team } = row;
    const internal = { host: container.ip, port: container.port };
    const published =
      container.publicIp && container.publicPort ? { host: container.publicIp, port: container.publicPort } : undefined;
    // Ports are published for the proxy only when the challenge network is out of reach: try them first then.
    const candidates = published
      ? this.deps.env.containers.docker.publishProxyPorts
        ? [published, internal]
        : [internal, published]
      : [internal];
    const record = this.deps.env.containers.trafficCapture && challenge?.capture && instance && team;
    return {
      rowId: container.id,
      noInstance: container.gameInstanceId === null,
      candidates,
      capture: record
        ? {
            challengeId: challenge.id,
            participationId: instance.participationId,
            meta: {
              challenge: challenge.title,
              challengeId: challenge.id,
              team: team.name,
              teamId: team.id,
              containerId: container.id,
              flag: instance.flag,
            },
          }
        : null,
    };
  }
}
