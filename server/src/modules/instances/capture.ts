import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  dummyMac,
  encodePacket,
  encodePackets,
  ipv6Bytes,
  MAX_UDP_PAYLOAD,
  PACKET_OVERHEAD,
  pcapGlobalHeader,
  type PacketEndpoint,
} from './capture.pcap';

/**
 * Traffic capture of proxied connections (reference §5.10, §5.17).
 *
 * Layout: `DATA_DIR/files/capture/{challengeId}/{participationId}/{8 hex}-{connection}.pcap`, where the
 * 8 hex are the start of the container row id and the connection id is unique per connection. A file
 * is written as `.{name}.tmp` beside its final name and renamed when the connection ends, so readers
 * (the monitor endpoints) only ever see whole files: the temporary name never matches
 * `CAPTURE_FILE_PATTERN`.
 *
 * Each file starts with one metadata datagram sent by `METADATA_ENDPOINT` to the client: the JSON of
 * `CaptureMeta`. When payload was left out (memory ran short, see `maxBufferedBytes`; the file reached
 * `maxFileBytes`; the volume ran low, see `CaptureSpace`) a last datagram from the same endpoint says
 * how much: `{"dropped":{"packets":n,"bytes":m}}`.
 */

export const CAPTURE_FILE_PATTERN = /^[0-9a-f]{8}-[A-Za-z0-9_-]+\.pcap$/;

const MAX_ID = 0x7fffffff;

/**
 * The made-up host the metadata datagrams come from: an address of the IPv6 documentation prefix
 * 2001:db8::/32 (RFC 3849), which no real peer can have, and the discard port. Filter it out in an
 * analyser with `!(ipv6.addr == 2001:db8::1)`.
 */
export const METADATA_ENDPOINT = { address: '2001:db8::1', port: 9 } as const;

const MAC = { metadata: dummyMac(0), client: dummyMac(1), container: dummyMac(2) };

// Enough for bursts of a few busy connections without letting a stalled disk take the server's memory.
const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** The queue's bound while the proxy's memory budget is spent (proxy.slabs.ts): a relay never waits for the disk. */
const PRESSED_MAX_BUFFERED_BYTES = 256 * 1024;
/** What one connection may write (env CAPTURE_MAX_FILE_MB): a player streaming for 30 minutes must not fill the disk. */
const DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024;

export const isCaptureId = (value: number): boolean => Number.isSafeInteger(value) && value > 0 && value <= MAX_ID;

/** A folder name that is a challenge or participation id ("12", never "012" or "-1"), else undefined. */
export function parseCaptureId(name: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(name)) return undefined;
  const id = Number(name);
  return isCaptureId(id) ? id : undefined;
}

export const isCaptureFileName = (name: string): boolean => CAPTURE_FILE_PATTERN.test(name);

function requireId(value: number, what: string): string {
  if (!isCaptureId(value)) throw new RangeError(`not a ${what} id: ${value}`);
  return String(value);
}

export function captureRoot(dataDir: string): string {
  return path.join(dataDir, 'files', 'capture');
}

export function challengeCaptureDir(dataDir: string, challengeId: number): string {
  return path.join(captureRoot(dataDir), requireId(challengeId, 'challenge'));
}

export function teamCaptureDir(dataDir: string, challengeId: number, participationId: number): string {
  return path.join(challengeCaptureDir(dataDir, challengeId), requireId(participationId, 'participation'));
}

/** The path of one capture file; throws for anything but a capture file name (no separators, no `..`). */
export function captureFilePath(
  dataDir: string,
  challengeId: number,
  participationId: number,
  fileName: string,
): string {
  if (!isCaptureFileName(fileName)) throw new RangeError(`not a capture file name: ${JSON.stringify(fileName)}`);
  return path.join(teamCaptureDir(dataDir, challengeId, participationId), fileName);
}

/**
 * `{first 8 hex of the container row id}-{connection id}.pcap`. The connection id is the time in
 * base 36 (so names sort by start time) and 48 random bits in base64url, unique per connection.
 */
export function newCaptureFileName(containerRowId: string, now = Date.now()): string {
  const prefix = containerRowId.replace(/-/g, '').toLowerCase().slice(0, 8);
  if (!/^[0-9a-f]{8}$/.test(prefix)) throw new RangeError(`not a container row id: ${containerRowId}`);
  return `${prefix}-${now.toString(36)}${randomBytes(6).toString('base64url')}.pcap`;
}

export interface CaptureTarget {
  dataDir: string;
  challengeId: number;
  participationId: number;
  containerRowId: string;
}

export interface CaptureEndpoints {
  client: { address: string; port: number };
  container: { address: string; port: number };
}

/** What the first datagram of every capture tells about the connection. */
export interface CaptureMeta {
  challenge: string;
  challengeId: number;
  team: string;
  teamId: number;
  containerId: string;
  flag: string | null;
}

export interface CaptureOptions {
  /** Bytes of packets waiting for the disk beyond which new packets are dropped (and counted). */
  maxBufferedBytes?: number;
  /** Bytes of the file (headers included) beyond which the connection is no longer recorded (the rest counted). */
  maxFileBytes?: number;
  /** The capture volume's free space: no file is started while it is low, and recording stops when it gets low. */
  space?: Pick<CaptureSpace, 'low' | 'enough'>;
  /** Memory shared with the proxy: the queue counts on it, and keeps to a small bound while it is spent. */
  memory?: { readonly pressed: boolean; add(bytes: number): void };
}

export interface CaptureRecorder {
  /** Records bytes the player sent. Never throws and never waits. */
  fromClient(chunk: Buffer): void;
  /** Records bytes the container sent. Never throws and never waits. */
  fromContainer(chunk: Buffer): void;
  /**
   * Ends the recording: the saved file's path, or undefined when nothing is kept (the connection
   * carried no payload, or the volume had no room for a file). Rejects, leaving no file, when writing failed. Later calls share the result.
   */
  close(): Promise<string | undefined>;
}

/**
 * Starts recording one proxied connection. Nothing touches the disk until the first payload byte;
 * packets are encoded at once (the caller may reuse its buffers) and written in the background in the
 * order they were recorded.
 */
export function startCapture(
  target: CaptureTarget,
  endpoints: CaptureEndpoints,
  meta: CaptureMeta,
  options: CaptureOptions = {},
): CaptureRecorder {
  try {
    return new PcapRecorder(target, endpoints, meta, {
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      space: options.space,
      memory: options.memory,
    });
  } catch (error) {
    // Bad ids must not break the connection being relayed: record nothing and report it on close.
    return { fromClient() {}, fromContainer() {}, close: () => Promise.reject(error as Error) };
  }
}

export interface CaptureSpaceOptions {
  /** Free bytes below which nothing more is recorded (0: never). */
  minFreeBytes: number;
  /** How long an answer of the file system is used before asking again. */
  intervalMs?: number;
  /** Told when the volume becomes low (on space or files) and when it has room again. */
  onChange?: (low: boolean, freeBytes: number) => void;
  statfs?: (directory: string) => Promise<VolumeStats>;
  now?: () => number;
}

type VolumeStats = Record<'bavail' | 'bsize' | 'files' | 'ffree', number | bigint>;

/** Below this share of its inodes free a volume counts as low too: a file per connection, even tiny, takes one. */
const MIN_FREE_INODES = 0.01;

/**
 * The free space of the volume captures are written to, so recordings stop before they fill it:
 * uploads, attachments, the embedded database and logs may share it. The file system is asked at
 * most once per `intervalMs` (one `statfs`, shared by every recorder); between two answers the last
 * one stands.
 */
export class CaptureSpace {
  private lowNow = false;
  private checkedAt = -Infinity;
  private looking: Promise<void> | undefined;
  private readonly intervalMs: number;
  private readonly statfs: NonNullable<CaptureSpaceOptions['statfs']>;
  private readonly now: () => number;

  constructor(
    private readonly dataDir: string,
    private readonly options: CaptureSpaceOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 5_000;
    this.statfs = options.statfs ?? ((directory) => fs.promises.statfs(directory));
    this.now = options.now ?? Date.now;
  }

  /** Whether the volume was low at the last look (starting another look when that one is old). Never waits. */
  get low(): boolean {
    void this.look();
    return this.lowNow;
  }

  /** Whether there is room, after a fresh look when the last one is old. */
  async enough(): Promise<boolean> {
    await this.look();
    return !this.lowNow;
  }

  private look(): Promise<void> {
    if (this.options.minFreeBytes <= 0) return Promise.resolve();
    if (this.looking) return this.looking;
    if (this.now() - this.checkedAt < this.intervalMs) return Promise.resolve();
    this.checkedAt = this.now();
    this.looking = this.measure()
      .then((stats) => {
        const freeBytes = Number(stats.bavail) * Number(stats.bsize);
        // File systems that make inodes as needed (btrfs, ZFS) report none.
        const files = Number(stats.files);
        const low =
          freeBytes < this.options.minFreeBytes || (files > 0 && Number(stats.ffree) < files * MIN_FREE_INODES);
        if (low !== this.lowNow) this.options.onChange?.(low, freeBytes);
        this.lowNow = low;
      })
      // A volume that cannot be measured keeps the last answer (at first: room).
      .catch(() => undefined)
      .finally(() => (this.looking = undefined));
    return this.looking;
  }

  /** The volume of the capture folder or, before that exists, of its nearest parent. */
  private async measure(): Promise<VolumeStats> {
    for (let directory = captureRoot(this.dataDir); ; directory = path.dirname(directory)) {
      try {
        return await this.statfs(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(directory) === directory) throw error;
      }
    }
  }
}

/** Microseconds since the epoch: wall-clock at the start, then a monotonic clock, never going back. */
function clock(): () => number {
  const startUs = Date.now() * 1000;
  const startNs = process.hrtime.bigint();
  let last = 0;
  return () => {
    last = Math.max(last, startUs + Number((process.hrtime.bigint() - startNs) / 1000n));
    return last;
  };
}

/** The volume had too little free space when the file was to be created: nothing is kept. */
class NoRoom extends Error {}

class PcapRecorder implements CaptureRecorder {
  private readonly directory: string;
  private readonly file: string;
  private readonly temporary: string;
  private readonly client: PacketEndpoint;
  private readonly container: PacketEndpoint;
  private readonly metadata: PacketEndpoint;
  private readonly now = clock();
  /** Global header and metadata records, queued with the first payload. */
  private head: Buffer[] | undefined;
  private readonly queue: Buffer[] = [];
  /** Bytes queued or being written: the memory this recorder holds. */
  private pending = 0;
  /** Bytes queued for the file so far, headers included. */
  private fileBytes = 0;
  /** The file reached its bound or the volume ran low: everything from here on is only counted. */
  private stopped = false;
  private readonly dropped = { packets: 0, bytes: 0 };
  private handle: FileHandle | undefined;
  private writing = false;
  private written: Promise<void> = Promise.resolve();
  private failure: unknown;
  private closed = false;
  private result: Promise<string | undefined> | undefined;

  constructor(
    target: CaptureTarget,
    endpoints: CaptureEndpoints,
    meta: CaptureMeta,
    private readonly limits: Required<Pick<CaptureOptions, 'maxBufferedBytes' | 'maxFileBytes'>> &
      Pick<CaptureOptions, 'space' | 'memory'>,
  ) {
    const name = newCaptureFileName(target.containerRowId);
    this.directory = teamCaptureDir(target.dataDir, target.challengeId, target.participationId);
    this.file = path.join(this.directory, name);
    this.temporary = path.join(this.directory, `.${name}.tmp`);
    this.client = { mac: MAC.client, ...endpoints.client, address: ipv6Bytes(endpoints.client.address) };
    this.container = { mac: MAC.container, ...endpoints.container, address: ipv6Bytes(endpoints.container.address) };
    this.metadata = { mac: MAC.metadata, port: METADATA_ENDPOINT.port, address: ipv6Bytes(METADATA_ENDPOINT.address) };
    const info: CaptureMeta = {
      challenge: meta.challenge,
      challengeId: meta.challengeId,
      team: meta.team,
      teamId: meta.teamId,
      containerId: meta.containerId,
      flag: meta.flag,
    };
    this.head = [
      pcapGlobalHeader(),
      ...encodePackets(this.now(), this.metadata, this.client, Buffer.from(JSON.stringify(info), 'utf8')),
    ];
  }

  fromClient(chunk: Buffer): void {
    this.record(this.client, this.container, chunk);
  }

  fromContainer(chunk: Buffer): void {
    this.record(this.container, this.client, chunk);
  }

  close(): Promise<string | undefined> {
    this.result ??= this.finish();
    return this.result;
  }

  private record(from: PacketEndpoint, to: PacketEndpoint, chunk: Buffer): void {
    if (this.closed || this.failure !== undefined || chunk.length === 0) return;
    if (this.limits.space?.low) {
      // A file not started yet never is; one under way keeps what it has and notes the rest.
      if (this.head) return;
      this.stopped = true;
    }
    if (this.head) {
      // The header and metadata are small and must come first, so they never count against the bound.
      this.enqueue(this.head);
      this.head = undefined;
    }
    const timestamp = this.now();
    const bound = this.limits.memory?.pressed
      ? Math.min(this.limits.maxBufferedBytes, PRESSED_MAX_BUFFERED_BYTES)
      : this.limits.maxBufferedBytes;
    for (let offset = 0; offset < chunk.length; offset += MAX_UDP_PAYLOAD) {
      const piece = chunk.subarray(offset, offset + MAX_UDP_PAYLOAD);
      const size = piece.length + PACKET_OVERHEAD;
      // Once the file is full the connection is no longer recorded, so a file never has gaps at its end.
      if (!this.stopped && this.fileBytes + size > this.limits.maxFileBytes) this.stopped = true;
      if (this.stopped || this.pending + size > bound) {
        this.dropped.packets += 1;
        this.dropped.bytes += piece.length;
        continue;
      }
      this.enqueue([encodePacket(timestamp, from, to, piece)]);
    }
    this.kick();
  }

  private enqueue(records: Buffer[]): void {
    for (const record of records) {
      this.queue.push(record);
      this.hold(record.length);
      this.fileBytes += record.length;
    }
  }

  /** Counts bytes queued (positive) or written or thrown away (negative), here and on the shared budget. */
  private hold(bytes: number): void {
    this.pending += bytes;
    this.limits.memory?.add(bytes);
  }

  /** Starts the background writer unless it is running; it drains the queue and stops. */
  private kick(): void {
    if (this.writing || this.failure !== undefined || this.queue.length === 0) return;
    this.writing = true;
    this.written = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        const size = batch.reduce((sum, record) => sum + record.length, 0);
        const handle = this.handle ?? (this.handle = await this.open());
        const { bytesWritten } = await handle.writev(batch);
        if (bytesWritten !== size) throw new Error(`short write to ${this.temporary}`);
        this.hold(-size);
      }
    } catch (error) {
      // A full or broken disk ends the recording, not the connection: later chunks are ignored.
      this.failure = error;
      this.queue.length = 0;
      this.hold(-this.pending);
    } finally {
      // Cleared in the same turn as the empty-queue check, so a chunk recorded next starts a new drain.
      this.writing = false;
    }
  }

  private async open(): Promise<FileHandle> {
    // Looked at (again, after a few seconds) before each file, so connections stop adding files as the volume fills.
    if (this.limits.space && !(await this.limits.space.enough())) throw new NoRoom();
    for (let attempt = 0; ; attempt += 1) {
      await fs.promises.mkdir(this.directory, { recursive: true });
      try {
        // 'wx': the name is fresh, so an existing file means something is wrong; never overwrite it.
        return await fs.promises.open(this.temporary, 'wx');
      } catch (error) {
        // A monitor deleting the team's last captures may remove the empty folder between the two calls.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 2) throw error;
      }
    }
  }

  private async finish(): Promise<string | undefined> {
    this.closed = true;
    // No payload ever arrived: nothing was opened, nothing is kept.
    if (this.head) return undefined;
    if (this.dropped.packets > 0 && this.failure === undefined) {
      const note = Buffer.from(JSON.stringify({ dropped: this.dropped }), 'utf8');
      this.enqueue(encodePackets(this.now(), this.metadata, this.client, note));
      this.kick();
    }
    while (this.writing) await this.written;
    // The volume was low when the file was to be made: skipped, as if nothing had been recorded.
    if (this.failure instanceof NoRoom) return undefined;
    const handle = this.handle;
    this.handle = undefined;
    try {
      if (this.failure !== undefined) throw this.failure;
      if (!handle) throw new Error(`capture ${this.file} was never opened`);
      await handle.close();
      await fs.promises.rename(this.temporary, this.file);
      return this.file;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await fs.promises.rm(this.temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}
