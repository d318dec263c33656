import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The browser side of wsrx, a desktop daemon on the player's machine that maps the platform's
 * WebSocket proxy URLs to local TCP ports (spec §3, §4; reference §7.5). Client-only state: the
 * options are persisted (src/app/persist.ts), everything else is learnt from the daemon again.
 */

/** What the user (or the platform title) chose; sent to the daemon. */
export interface WsrxOptions {
  /** Base URL of the daemon's HTTP API. */
  api: string;
  /** How this site introduces itself in the daemon's approval list. */
  name: string;
  /** Bind mappings on every interface (`0.0.0.0`) instead of loopback only. */
  allowLan: boolean;
}

/** Spec §4: what the last `GET /connect` said (202 Usable, 201 Pending, anything else Invalid). */
export type DaemonState = 'Invalid' | 'Pending' | 'Usable';

export type WsrxErrorKind =
  'daemon_unavailable' | 'daemon_version_mismatch' | 'daemon_error' | 'scope_unverified' | 'missing_scope';

/** One mapping in the daemon's pool. */
export interface WsrxInstance {
  label?: string;
  /** The `ws(s)://…/api/proxy/{id}` URL the daemon connects to. */
  remote: string;
  /** Where the daemon listens, e.g. `127.0.0.1:41234`. */
  local: string;
  /** Milliseconds as the daemon measured them; −1 when the remote does not answer. */
  latency?: number;
}

export interface WsrxState {
  options: WsrxOptions;
  daemon: DaemonState;
  /** A connect attempt (version, check, registration) is under way. */
  connecting: boolean;
  /** Why the last connect attempt or mapping failed; cleared by a successful connect. */
  error: WsrxErrorKind | null;
  instances: WsrxInstance[];
  /** The pool was read from the daemon since it became usable, so "already mapped" can be trusted. */
  poolSynced: boolean;
  /** Remotes whose mapping is being added, and those whose last attempt failed. */
  mapping: Record<string, 'adding' | 'failed'>;
}

export const DEFAULT_DAEMON_API = 'http://127.0.0.1:3307';
/** The name the daemon shows until the platform title is known; the default title 'GZ' gives the same. */
export const DEFAULT_DAEMON_NAME = 'GZ::CTF';
const MAX_NAME_LENGTH = 100;
const MAX_API_LENGTH = 2048;

export const initialWsrxOptions: WsrxOptions = { api: DEFAULT_DAEMON_API, name: DEFAULT_DAEMON_NAME, allowLan: false };

export const initialWsrxState: WsrxState = {
  options: initialWsrxOptions,
  daemon: 'Invalid',
  connecting: false,
  error: null,
  instances: [],
  poolSynced: false,
  mapping: {},
};

/** Spec §3: once the title is known the daemon sees the site as "{title}::CTF". */
export function daemonNameFor(title: unknown): string {
  // The config comes from the server: a malformed title must not break every action's listeners.
  const name = `${(typeof title === 'string' && title.trim()) || 'GZ'}::CTF`;
  return name.slice(0, MAX_NAME_LENGTH);
}

/**
 * The daemon address in its canonical form (no trailing slash), or null when it is not an http(s)
 * URL: it is fetched from the page, so nothing else (javascript:, file:, relative paths) may get in.
 */
export function normalizeDaemonApi(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_API_LENGTH) return null;
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  if (url.search || url.hash) return null;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH;

/**
 * What the local cache keeps of this slice: the options only. The daemon's state and pool belong to
 * the moment and are asked for again at start-up.
 */
export const persistedWsrx = (state: WsrxState) => ({ options: state.options });

/** Restores the stored options, keeping only valid values (storage is outside our control). */
export function sanitizeWsrx(stored: unknown): WsrxState {
  const options = (
    stored && typeof stored === 'object' && 'options' in stored && stored.options && typeof stored.options === 'object'
      ? stored.options
      : {}
  ) as Partial<Record<keyof WsrxOptions, unknown>>;
  return {
    ...initialWsrxState,
    options: {
      api: normalizeDaemonApi(options.api) ?? initialWsrxOptions.api,
      name: isName(options.name) ? options.name : initialWsrxOptions.name,
      allowLan: typeof options.allowLan === 'boolean' ? options.allowLan : initialWsrxOptions.allowLan,
    },
  };
}

function forgetPool(state: WsrxState) {
  // Only touched when there is something to forget, so repeated checks leave the state as it was.
  if (state.instances.length > 0) state.instances = [];
  if (Object.keys(state.mapping).length > 0) state.mapping = {};
  state.poolSynced = false;
}

export const wsrxSlice = createSlice({
  name: 'wsrx',
  initialState: initialWsrxState,
  reducers: {
    /** The user saved the connector settings; an invalid address is never stored. */
    optionsChanged(state, action: PayloadAction<{ api?: string; allowLan?: boolean }>) {
      const api = action.payload.api === undefined ? state.options.api : normalizeDaemonApi(action.payload.api);
      if (api !== null && api !== state.options.api) {
        state.options.api = api;
        // Another address may be another daemon: what we knew of the pool no longer holds.
        forgetPool(state);
      }
      if (typeof action.payload.allowLan === 'boolean') state.options.allowLan = action.payload.allowLan;
    },
    /** The platform title became known (src/app): the daemon lists the site under it. */
    daemonNamed(state, action: PayloadAction<string>) {
      if (isName(action.payload)) state.options.name = action.payload;
    },
    /** The user asked to (re)connect now. */
    connectRequested() {},
    /** A mapping for an instance entry is wanted (the entry is on screen while the daemon is usable). */
    mappingRequested(_state, _action: PayloadAction<{ remote: string; label: string }>) {},
    /** A mapping is no longer wanted. */
    mappingReleased(_state, _action: PayloadAction<{ local: string }>) {},

    // Outcomes reported by the listeners (listeners.ts).
    connectStarted(state) {
      state.connecting = true;
    },
    connectFinished(state, action: PayloadAction<{ error: WsrxErrorKind | null }>) {
      state.connecting = false;
      state.error = action.payload.error;
    },
    daemonChecked(state, action: PayloadAction<DaemonState>) {
      state.daemon = action.payload;
      if (action.payload !== 'Usable') forgetPool(state);
    },
    poolSynced(state, action: PayloadAction<WsrxInstance[]>) {
      state.instances = action.payload;
      state.poolSynced = true;
    },
    mappingStarted(state, action: PayloadAction<string>) {
      state.mapping[action.payload] = 'adding';
    },
    mappingAdded(state, action: PayloadAction<{ remote: string; instance: WsrxInstance }>) {
      const { remote, instance } = action.payload;
      delete state.mapping[remote];
      // The daemon stopped being usable while the call ran: its pool is read again once it is back.
      if (state.daemon !== 'Usable') return;
      state.instances = state.instances.filter((known) => known.remote !== instance.remote);
      state.instances.push(instance);
    },
    mappingFailed(state, action: PayloadAction<{ remote: string; error: WsrxErrorKind }>) {
      state.mapping[action.payload.remote] = 'failed';
      state.error = action.payload.error;
    },
    mappingRemoved(state, action: PayloadAction<string>) {
      state.instances = state.instances.filter((instance) => instance.local !== action.payload);
    },
  },
  selectors: {
    selectWsrxOptions: (state) => state.options,
    selectDaemonState: (state) => state.daemon,
    selectWsrxConnecting: (state) => state.connecting,
    selectWsrxError: (state) => state.error,
    selectWsrxInstances: (state) => state.instances,
    selectPoolSynced: (state) => state.poolSynced,
    selectInstanceByRemote: (state, remote: string) => state.instances.find((instance) => instance.remote === remote),
    selectMappingStatus: (state, remote: string) => state.mapping[remote],
  },
});

export const {
  optionsChanged,
  daemonNamed,
  connectRequested,
  mappingRequested,
  mappingReleased,
  connectStarted,
  connectFinished,
  daemonChecked,
  poolSynced,
  mappingStarted,
  mappingAdded,
  mappingFailed,
  mappingRemoved,
} = wsrxSlice.actions;

export const {
  selectWsrxOptions,
  selectDaemonState,
  selectWsrxConnecting,
  selectWsrxError,
  selectWsrxInstances,
  selectPoolSynced,
  selectInstanceByRemote,
  selectMappingStatus,
} = wsrxSlice.selectors;

/** The part of the root state this feature reads. */
export type WsrxRootState = { [wsrxSlice.reducerPath]: WsrxState };
