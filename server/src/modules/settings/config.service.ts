import type { components } from '../../contract/api.generated';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { generateApiKeyPair } from '../../lib/api-encryption';
import { toWebp } from '../../lib/images';
import { releaseFile, storeFile } from '../attachments';
import type { Settings } from './settings.defaults';
import type { SettingsStore } from './settings.plugin';

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
 * previous files lose their reference only once the new ones are in place.
 */
export async function updateLogo(deps: ConfigDeps, image: Buffer): Promise<{ logoHash: string; faviconHash: string }> {
  const [logo, favicon] = await Promise.all([
    toWebp(image, { width: LOGO_WIDTH }),
    toWebp(image, { width: FAVICON_WIDTH }),
  ]);
  const { dataDir } = deps.env;
  const previous = (await getConfig(deps)).globalConfig;
  const storedLogo = await storeFile(deps.db, dataDir, { buffer: logo, name: 'logo' });
  const storedFavicon = await storeFile(deps.db, dataDir, { buffer: favicon, name: 'favicon' });
  try {
    await deps.settings.update({ globalConfig: { logoHash: storedLogo.hash, faviconHash: storedFavicon.hash } });
  } catch (error) {
    await releaseFile(deps.db, dataDir, storedLogo.hash);
    await releaseFile(deps.db, dataDir, storedFavicon.hash);
    throw error;
  }
  await releasePrevious(deps, previous);
  return { logoHash: storedLogo.hash, faviconHash: storedFavicon.hash };
}

export async function resetLogo(deps: ConfigDeps): Promise<void> {
  const previous = (await getConfig(deps)).globalConfig;
  await deps.settings.update({ globalConfig: { logoHash: null, faviconHash: null } });
  await releasePrevious(deps, previous);
}

async function releasePrevious(deps: ConfigDeps, previous: { logoHash: string | null; faviconHash: string | null }) {
  for (const hash of [previous.logoHash, previous.faviconHash]) {
    if (hash) await releaseFile(deps.db, deps.env.dataDir, hash);
  }
}
