import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import type { Env } from '../../env';
import { generateApiKeyPair } from '../../lib/api-encryption';
import { sha256 } from '../../lib/blobs';
import { toWebp } from '../../lib/images';
import { releaseFileRow, removeBlob, storeFile } from '../attachments';
import type { Settings } from './settings.defaults';
import { readSettings, settingRows, type SettingsStore } from './settings.plugin';
import { lockSettings, writeSettingRows } from './settings.repository';

export type ConfigEditModel = components['schemas']['ConfigEditModel'];

/** GZCTF's sizes (reference §5.17). */
export const LOGO_WIDTH = 640;
export const FAVICON_WIDTH = 256;

/** What the configuration's rules use: the stored settings, and the database and data dir for the logo's files. */
export interface ConfigDeps {
  db: Database;
  settings: SettingsStore;
  env: Pick<Env, 'dataDir' | 'xorKey'>;
}

/** Re-reads the stored rows first (as GZCTF reloads its configuration), so another instance's edit shows. */
export async function getConfig(deps: ConfigDeps): Promise<Settings> {
  deps.settings.invalidate();
  return deps.settings.get();
}

/**
 * Saves each section that is present. Ranges were checked against the contract before we got here;
 * the logo and favicon hashes are read-only in this model (GZCTF's AutoSaveIgnore) and change only
 * through the logo upload.
 */
export async function updateConfig(deps: ConfigDeps, model: ConfigEditModel): Promise<Settings> {
  const globalConfig: Partial<Settings['globalConfig']> | null = model.globalConfig ? { ...model.globalConfig } : null;
  if (globalConfig) {
    delete globalConfig.logoHash;
    delete globalConfig.faviconHash;
    delete globalConfig.apiPublicKey;
    delete globalConfig.apiPrivateKey;
    // Switching payload encryption on the first time makes its key pair (reference §1.5); later
    // switches keep it, so clients holding the published key keep working.
    if (globalConfig.apiEncryption && !(await deps.settings.get()).globalConfig.apiPublicKey) {
      const keys = generateApiKeyPair(deps.env.xorKey);
      globalConfig.apiPublicKey = keys.publicKey;
      globalConfig.apiPrivateKey = keys.privateKey;
    }
  }
  return deps.settings.update({
    accountPolicy: model.accountPolicy ?? null,
    globalConfig,
    containerPolicy: model.containerPolicy ?? null,
  });
}

/**
 * Stores the logo (640 px wide) and favicon (256 px) as WebP and points the settings at them; the
 * previous files lose their reference in the same transaction.
 */
export async function updateLogo(deps: ConfigDeps, image: Buffer): Promise<{ logoHash: string; faviconHash: string }> {
  const [logo, favicon] = await Promise.all([
    toWebp(image, { width: LOGO_WIDTH }),
    toWebp(image, { width: FAVICON_WIDTH }),
  ]);
  const { dataDir } = deps.env;
  const hashes = { logoHash: sha256(logo), faviconHash: sha256(favicon) };
  await changeLogo(deps, hashes, async (tx) => {
    // Each store holds its hash's lock until the commit: taken in hash order, as an upload of several
    // files takes them, so an upload of the same two pictures cannot deadlock with this.
    const files = [
      { buffer: logo, name: 'logo', hash: hashes.logoHash },
      { buffer: favicon, name: 'favicon', hash: hashes.faviconHash },
    ].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
    for (const file of files) await storeFile(tx, dataDir, { buffer: file.buffer, name: file.name });
  });
  return hashes;
}

export async function resetLogo(deps: ConfigDeps): Promise<void> {
  await changeLogo(deps, { logoHash: null, faviconHash: null }, async () => {});
}

type LogoHashes = { logoHash: string | null; faviconHash: string | null };

/**
 * Points the settings at new logo files (`store` takes their references) and drops the previous
 * files' references, in one transaction under the logo's lock: of two changes at once (uploads, a
 * reset), each releases the files the one before it set, once. Read-modify-write on the stored rows,
 * not the copy, which another instance's change may not have reached yet.
 */
async function changeLogo(deps: ConfigDeps, next: LogoHashes, store: (tx: Db) => Promise<void>): Promise<void> {
  const unreferenced = await deps.db.transaction(async (tx) => {
    await lockSettings(tx, 'logo');
    const previous = (await readSettings(tx)).globalConfig;
    await store(tx);
    await writeSettingRows(tx, settingRows({ globalConfig: next }));
    // After the store: the same picture again took a second reference, which this balances.
    const deleted: string[] = [];
    for (const hash of [previous.logoHash, previous.faviconHash]) {
      if (hash && (await releaseFileRow(tx, hash)) === 'deleted') deleted.push(hash);
    }
    return deleted;
  });
  // Drops this copy and tells the other instances (the rows are already written).
  await deps.settings.update({});
  // Only after the commit, so a rollback can never leave a row without its bytes.
  for (const hash of unreferenced) await removeBlob(deps.db, deps.env.dataDir, hash);
}
