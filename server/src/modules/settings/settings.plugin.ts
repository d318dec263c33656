import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../../db/client';
import { DEFAULT_SETTINGS, SETTINGS_SECTIONS, type Settings, type SettingsSection } from './settings.defaults';
import { readSettingRows, writeSettingRows } from './settings.repository';

export type SettingsChanges = { [S in SettingsSection]?: Partial<Settings[S]> | null };

export interface SettingsStore {
  get(): Promise<Settings>;
  /**
   * Saves the changes, drops the copy and announces the change. With no changes it only drops and
   * announces: after a caller's own transaction wrote the rows (`writeSettingRows` with `settingRows`).
   */
  update(changes: SettingsChanges): Promise<Settings>;
  /** Drops the in-process copy, e.g. when another instance announces a change. */
  invalidate(): void;
  /** Called after each saved change (the plugin tells the other instances). */
  onChange(listener: () => void): void;
}

function merge(rows: Array<{ key: string; value: string }>): Settings {
  const settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  for (const { key, value } of rows) {
    const [section, field] = key.split('.') as [SettingsSection, string];
    const target = settings[section] as unknown as Record<string, unknown> | undefined;
    if (!target || !(field in target)) continue; // a key from an older version: ignore, don't crash
    try {
      target[field] = JSON.parse(value);
    } catch {
      // A hand-edited row that is not JSON keeps the default rather than breaking every page.
    }
  }
  return settings;
}

/**
 * How long a copy is served before it is read again: the bound on staleness when another instance's
 * announcement is lost (Redis pub/sub delivers nothing to a subscriber that is away, and an instance
 * whose Redis was down told only itself). A read is a few rows, so even every few seconds costs nothing.
 */
export const SETTINGS_CACHE_MS = 10_000;

/** The stored settings as they are now, not a copy: for a read-modify-write inside a transaction. */
export async function readSettings(db: Db): Promise<Settings> {
  return merge(await readSettingRows(db));
}

/** The rows that store `changes` (fields the settings do not have are left out). */
export function settingRows(changes: SettingsChanges): Array<{ key: string; value: string }> {
  const rows: Array<{ key: string; value: string }> = [];
  for (const section of SETTINGS_SECTIONS) {
    const values = changes[section];
    if (!values) continue;
    for (const [field, value] of Object.entries(values)) {
      if (value === undefined || !(field in DEFAULT_SETTINGS[section])) continue;
      rows.push({ key: `${section}.${field}`, value: JSON.stringify(value) });
    }
  }
  return rows;
}

export function createSettingsStore(db: Database, now: () => number = Date.now): SettingsStore {
  let cached: { settings: Promise<Settings>; until: number } | undefined;
  const listeners: Array<() => void> = [];
  return {
    get() {
      if (!cached || cached.until <= now()) {
        const entry: { settings: Promise<Settings>; until: number } = {
          settings: readSettingRows(db).then(merge, (error: unknown) => {
            if (cached === entry) cached = undefined;
            throw error;
          }),
          until: now() + SETTINGS_CACHE_MS,
        };
        cached = entry;
      }
      return cached.settings;
    },
    async update(changes) {
      await writeSettingRows(db, settingRows(changes));
      cached = undefined;
      for (const listener of listeners) listener();
      return this.get();
    },
    invalidate() {
      cached = undefined;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: SettingsStore;
  }
}

export default fp(
  async function settings(app: FastifyInstance) {
    const store = createSettingsStore(app.db);
    app.decorate('settings', store);
    // Every instance keeps its own copy: a change saved on one is announced, and each drops its copy.
    app.signals.subscribe('settings', () => store.invalidate());
    // Announcements made while this instance could not hear them are gone: read again rather than
    // wait for the copy to expire.
    app.signals.onReconnect(() => store.invalidate());
    store.onChange(() => {
      app.signals
        .publish('settings')
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not announce a settings change'));
    });
  },
  { name: 'settings', dependencies: ['db', 'signals'] },
);
