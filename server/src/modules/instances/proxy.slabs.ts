/**
 * What the proxy reads container bytes into, and holds them in until the client's socket took them.
 *
 * A socket that is not streaming reads into one buffer shared by every container socket (a read
 * takes whatever the kernel holds, up to 1 MiB, and its bytes are copied out at once). Once a
 * socket's reads are large it is streaming, and its next read goes straight into a slab from this
 * pool (twice the last read, at most 1 MiB), whose view is sent as is; the slab comes back once the
 * client's socket has taken it. An idle connection holds no memory, unless its last read was large:
 * then the slab for its next read. What sessions hold counts against one budget for the process
 * (`MemoryBudget`). Before, every read was copied into a buffer of its own: at 32 streams in the
 * containers bench over a quarter of the server's busy main thread went to allocating them and a
 * sixth to collecting them, with V8's helper threads busy half as long again (2.0 s of the server's
 * CPU per 0.5 GiB relayed, 0.26–0.33 × direct TCP; now 0.4–0.8 s, 0.44–0.69 ×).
 */

/** Reads shorter than this are copied into a buffer of their own (small allocations are cheap). */
const STREAMING_READ = 64 * 1024;
/** The largest read: the shared buffer's size, and a streaming socket's slab. */
const LARGEST_READ = 1024 * 1024;
/**
 * Free slabs kept, in bytes: enough for 32 streams' slabs in flight to come back and be reused (with
 * a bound of 8 slabs per size, most were dropped and allocated anew, and V8 collected garbage for
 * the external memory every 0.2 s). A pool nobody took a slab from for a whole trim period empties.
 */
const FREE_BYTES = 64 * 1024 * 1024;
const TRIM_MS = 30_000;

/**
 * Bytes held by every session of the process (for clients, for containers, in capture queues)
 * against one budget. Per-session bounds alone let one team with a hundred sessions pin hundreds of
 * MiB; past the budget each session may only hold a small share (proxy.ts) and reads get small, so
 * the total stays near the budget while every session still moves (a hard stop would let whoever
 * fills the budget stall everyone).
 */
export class MemoryBudget {
  /** Bytes held now. */
  bytes = 0;

  constructor(readonly limit: number) {}

  /** The budget is spent: sessions keep to their small share. */
  get pressed(): boolean {
    return this.bytes >= this.limit;
  }

  /** One holder's count (a session, a recorder). */
  account(): MemoryAccount {
    return new MemoryAccount(this);
  }
}

/** What one holder adds to the budget; `close` gives back whatever it still counts, once. */
export class MemoryAccount {
  private own = 0;
  private open = true;

  constructor(private readonly budget: MemoryBudget) {}

  get pressed(): boolean {
    return this.budget.pressed;
  }

  /** Counts bytes taken (positive) or given back (negative); nothing once closed. */
  add(bytes: number): void {
    if (!this.open) return;
    this.own += bytes;
    this.budget.bytes += bytes;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.budget.bytes -= this.own;
    this.own = 0;
  }
}

export class ReadBuffers {
  private readonly shared = Buffer.allocUnsafe(LARGEST_READ);
  /** The shared buffer's start, read into while the budget is spent: reads of one small share. */
  private readonly sharedSmall = this.shared.subarray(0, STREAMING_READ);
  /** Free slabs by size (powers of two from STREAMING_READ to LARGEST_READ). */
  private readonly free = new Map<number, Buffer[]>();
  /** The memory of every slab this pool made, so only those ever come back to it. */
  private readonly mine = new WeakSet<ArrayBufferLike>();
  private freeBytes = 0;
  /** Slabs handed out so far, and as of the last trim. */
  private taken = 0;
  private takenAtTrim = 0;
  private readonly trim = setInterval(() => {
    if (this.taken === this.takenAtTrim) {
      this.free.clear();
      this.freeBytes = 0;
    }
    this.takenAtTrim = this.taken;
  }, TRIM_MS);

  /** `budget`: while it is spent, reads are at most one small share (`STREAMING_READ`). */
  constructor(private readonly budget?: MemoryBudget) {
    this.trim.unref();
  }

  /** Stops the trim timer (the proxy is stopping). */
  close(): void {
    clearInterval(this.trim);
    this.free.clear();
    this.freeBytes = 0;
  }

  /**
   * The `onread` of one container socket: each read becomes a chunk handed to `take` (false pauses
   * reading), which must `release` it once nothing reads it any more. The slab waiting for the
   * socket's next read counts on `account` (an idle socket keeps it), which the caller closes
   * with the socket.
   */
  onread(
    take: (chunk: Buffer) => boolean,
    account?: MemoryAccount,
  ): {
    buffer: () => Uint8Array;
    callback: (length: number, buffer: Uint8Array) => boolean;
  } {
    // The size of the slab the next read goes into; 0: the shared buffer.
    let next = 0;
    let waiting = 0;
    return {
      buffer: () => {
        const small = this.budget?.pressed ?? false;
        if (!next) return small ? this.sharedSmall : this.shared;
        const slab = this.slab(small ? Math.min(next, STREAMING_READ) : next);
        waiting = slab.length;
        account?.add(waiting);
        return slab;
      },
      callback: (length, buffer) => {
        // From here the bytes read count as the chunk's (`held`), on whoever takes it.
        account?.add(-waiting);
        waiting = 0;
        const streaming = length >= STREAMING_READ;
        // Twice the last read, so a socket that fills its slab gets a larger one, up to 1 MiB.
        next = streaming ? Math.min(LARGEST_READ, 2 * length) : 0;
        if (buffer === this.shared || buffer === this.sharedSmall) return take(this.copy(length));
        // A buffer other than the shared one is a slab this pool gave the socket (`buffer` above).
        const slab = buffer as Buffer;
        if (streaming) return take(slab.subarray(0, length));
        const chunk = Buffer.from(slab.subarray(0, length));
        this.release(slab);
        return take(chunk);
      },
    };
  }

  /** Bytes of memory behind `chunk` while it is held: its slab's size, or its own length. */
  held(chunk: Buffer): number {
    return this.mine.has(chunk.buffer) ? chunk.buffer.byteLength : chunk.length;
  }

  /** Hands back a chunk once nothing reads it any more; one of its own is left to the GC. */
  release(chunk: Buffer): void {
    if (!this.mine.has(chunk.buffer)) return;
    const size = chunk.buffer.byteLength;
    if (this.freeBytes + size > FREE_BYTES) return;
    const list = this.free.get(size) ?? [];
    list.push(Buffer.from(chunk.buffer, 0, size));
    this.free.set(size, list);
    this.freeBytes += size;
  }

  /** The shared buffer's first `length` bytes, copied: into a slab when large. */
  private copy(length: number): Buffer {
    const bytes = this.shared.subarray(0, length);
    if (length < STREAMING_READ) return Buffer.from(bytes);
    const slab = this.slab(length);
    slab.set(bytes);
    return slab.subarray(0, length);
  }

  /** A free slab of the smallest size that holds `length` bytes, or a new one. */
  private slab(length: number): Buffer {
    let size = STREAMING_READ;
    while (size < length) size *= 2;
    this.taken += 1;
    const reused = this.free.get(size)?.pop();
    if (reused) {
      this.freeBytes -= size;
      return reused;
    }
    const slab = Buffer.allocUnsafeSlow(size);
    this.mine.add(slab.buffer);
    return slab;
  }
}
