import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { DEFAULT_SETTINGS, SETTINGS_SECTIONS, type Settings, type SettingsSection } from './settings.defaults';
import { readSettingRows, writeSettingRows } from './settings.repository';

export interface SettingsStore {
  get(): Promise<Settings>;
  update(changes: { [S in SettingsSection]?: Partial<Settings[S]> | null }): Promise<Settings>;
  /** Drops the in-process copy, e.g. when another instance announces a change. */
  invalidate(): void;
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

export function createSettingsStore(db: Db): SettingsStore {
  let cached: Promise<Settings> | undefined;
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
      return this.get();
    },
    invalidate() {
      cached = undefined;
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
    app.decorate('settings', createSettingsStore(app.db));
  },
  { name: 'settings', dependencies: ['db'] },
);
