import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/client';
import { DEFAULT_SETTINGS, SETTINGS_SECTIONS, type Settings, type SettingsSection } from './settings.defaults';
import { readSettingRows, writeSettingRows } from './settings.repository';

export interface SettingsStore {
  get(): Promise<Settings>;
  update(changes: { [S in SettingsSection]?: Partial<Settings[S]> | null }): Promise<Settings>;
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

export function createSettingsStore(db: Database): SettingsStore {
  let cached: Promise<Settings> | undefined;
  const listeners: Array<() => void> = [];
  return {
    get() {
      cached ??= readSettingRows(db).then(merge, (error: unknown) => {
        cached = undefined;
        throw error;
      });
      return cached;
    },
    async update(changes) {
      const rows: Array<{ key: string; value: string }> = [];
      for (const section of SETTINGS_SECTIONS) {
        const values = changes[section];
        if (!values) continue;
        for (const [field, value] of Object.entries(values)) {
          if (value === undefined || !(field in DEFAULT_SETTINGS[section])) continue;
          rows.push({ key: `${section}.${field}`, value: JSON.stringify(value) });
        }
      }
      await writeSettingRows(db, rows);
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
    store.onChange(() => {
      app.signals
        .publish('settings')
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not announce a settings change'));
    });
  },
  { name: 'settings', dependencies: ['db', 'signals'] },
);
