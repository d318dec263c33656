import type { DaemonState, WsrxErrorKind, WsrxInstance } from './slice';

/**
 * The wsrx daemon's HTTP API (spec §7 "Local daemon"), one plain `fetch` per call and never a retry:
 * the listeners poll on their own clock, and a retried call would only hide a daemon going away.
 */

/** Spec §5: older daemons lack the API this client speaks. */
export const REQUIRED_VERSION = '0.4';
/** Spec §3: what the site asks the daemon for; `pingfall` drops a mapping once its remote is gone. */
export const DAEMON_FEATURES = ['basic', 'pingfall'] as const;
/** The daemon is local: an answer this late means it is stuck, and the next tick should find out. */
export const DAEMON_TIMEOUT_MS = 10_000;
/** Longest daemon text we pass on; anything longer is not a message. */
const MAX_DETAIL_LENGTH = 300;

export class DaemonError extends Error {
  constructor(
    readonly kind: WsrxErrorKind,
    /** The daemon's own words, when it gave any. */
    readonly detail?: string,
  ) {
    super(detail ? `${kind}: ${detail}` : kind);
    this.name = 'DaemonError';
  }
}

interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  /** Aborts the call (the listener was cancelled). */
  signal?: AbortSignal;
}

async function call(api: string, path: string, { method = 'GET', body, signal }: CallOptions = {}): Promise<Response> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  const timer = setTimeout(abort, DAEMON_TIMEOUT_MS);
  try {
    return await fetch(`${api}${path}`, {
      method,
      // Only calls with a body carry a content type: a bare GET stays a "simple" request that needs
      // no CORS preflight, which is how the daemon expects /connect and /version to be asked.
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // Refused, blocked by CORS, or timed out: from the page these all look the same.
    throw new DaemonError('daemon_unavailable');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

async function detailOf(response: Response): Promise<string | undefined> {
  try {
    const text = (await response.text()).trim();
    return text && text.length <= MAX_DETAIL_LENGTH ? text : undefined;
  } catch {
    return undefined;
  }
}

/** A failed pool call: the daemon refuses sites it has not approved (or could not identify). */
async function poolError(response: Response): Promise<DaemonError> {
  if (response.status === 401) return new DaemonError('missing_scope');
  if (response.status === 403) return new DaemonError('scope_unverified');
  return new DaemonError('daemon_error', await detailOf(response));
}

async function json(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new DaemonError('daemon_error');
  }
}

/** `[major, minor, patch]` of "0.4", "v0.5.1", "1.0.0-beta"; null when it is no version at all. */
export function parseVersion(value: unknown): [number, number, number] | null {
  if (typeof value !== 'string') return null;
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(value.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** Compared number by number: as text, "0.10" would sort before "0.4". */
export function isSupportedVersion(value: unknown, required = REQUIRED_VERSION): boolean {
  const version = parseVersion(value);
  const minimum = parseVersion(required);
  if (!version || !minimum) return false;
  for (let index = 0; index < 3; index++) {
    if (version[index] !== minimum[index]) return version[index]! > minimum[index]!;
  }
  return true;
}

/** `GET /version`: resolves with the version when it is new enough (spec §5). */
export async function checkVersion(api: string, signal?: AbortSignal): Promise<string> {
  const response = await call(api, '/version', { signal });
  // Daemons from before the version endpoint answer 404.
  if (response.status === 404) throw new DaemonError('daemon_version_mismatch');
  if (!response.ok) throw new DaemonError('daemon_error', await detailOf(response));
  const body = await json(response);
  const version = body && typeof body === 'object' && 'version' in body ? body.version : undefined;
  if (!isSupportedVersion(version)) {
    throw new DaemonError('daemon_version_mismatch', typeof version === 'string' ? version : undefined);
  }
  return version as string;
}

/** `GET /connect`: how the daemon sees this site. Never fails: no answer is an answer (Invalid). */
export async function checkConnection(api: string, signal?: AbortSignal): Promise<DaemonState> {
  try {
    const response = await call(api, '/connect', { signal });
    if (response.status === 202) return 'Usable';
    if (response.status === 201) return 'Pending';
    return 'Invalid';
  } catch (error) {
    if (signal?.aborted) throw error;
    return 'Invalid';
  }
}

/**
 * `POST /connect`: asks the daemon to list this site for approval. The daemon reads the site from the
 * request's Origin header (`host: 'IN_HEADER'`), so a page cannot claim to be another site.
 */
export async function register(api: string, name: string, signal?: AbortSignal): Promise<void> {
  const response = await call(api, '/connect', {
    method: 'POST',
    body: { name, features: DAEMON_FEATURES, host: 'IN_HEADER', state: 'pending' },
    signal,
  });
  if (!response.ok) throw new DaemonError('daemon_error', await detailOf(response));
}

function toInstance(value: unknown): WsrxInstance | null {
  if (!value || typeof value !== 'object') return null;
  const { label, remote, local, latency } = value as Record<string, unknown>;
  if (typeof remote !== 'string' || typeof local !== 'string') return null;
  return {
    remote,
    local,
    ...(typeof label === 'string' ? { label } : {}),
    ...(typeof latency === 'number' ? { latency } : {}),
  };
}

/** `GET /pool`: the daemon's mappings for this site. */
export async function listPool(api: string, signal?: AbortSignal): Promise<WsrxInstance[]> {
  const response = await call(api, '/pool', { signal });
  if (!response.ok) throw await poolError(response);
  const body = await json(response);
  if (!Array.isArray(body)) throw new DaemonError('daemon_error');
  return body.map(toInstance).filter((instance): instance is WsrxInstance => instance !== null);
}

/**
 * `POST /pool`: maps `remote` to a port the daemon picks (port 0) on loopback, or on every interface
 * when the user allowed LAN access; the answer carries the address it bound.
 */
export async function addToPool(
  api: string,
  { label, remote, allowLan }: { label: string; remote: string; allowLan: boolean },
  signal?: AbortSignal,
): Promise<WsrxInstance> {
  const local = allowLan ? '0.0.0.0:0' : '127.0.0.1:0';
  const response = await call(api, '/pool', { method: 'POST', body: { label, remote, local }, signal });
  if (!response.ok) throw await poolError(response);
  const instance = toInstance(await json(response));
  if (!instance) throw new DaemonError('daemon_error');
  return instance;
}

/** `DELETE /pool`: removes the mapping listening on `local`. */
export async function removeFromPool(api: string, local: string, signal?: AbortSignal): Promise<void> {
  const response = await call(api, '/pool', { method: 'DELETE', body: { local }, signal });
  if (!response.ok) throw await poolError(response);
}
