import type { FastifyInstance } from 'fastify';
import type { components } from '../../contract/api.generated';
import { generateApiKeyPair } from '../../lib/api-encryption';
import { toWebp } from '../../lib/images';
import { releaseFile, storeFile } from '../../lib/storage';
import type { Settings } from './settings.defaults';

export type ConfigEditModel = components['schemas']['ConfigEditModel'];

/** GZCTF's sizes (reference §5.17). */
export const LOGO_WIDTH = 640;
export const FAVICON_WIDTH = 256;

/** Re-reads the stored rows first (as GZCTF reloads its configuration), so another instance's edit shows. */
export async function getConfig(app: FastifyInstance): Promise<Settings> {
  app.settings.invalidate();
  return app.settings.get();
}

/**
 * Saves each section that is present. Ranges were checked against the contract before we got here;
 * the logo and favicon hashes are read-only in this model (GZCTF's AutoSaveIgnore) and change only
 * through the logo upload.
 */
export async function updateConfig(app: FastifyInstance, model: ConfigEditModel): Promise<Settings> {
  const globalConfig: Partial<Settings['globalConfig']> | null = model.globalConfig ? { ...model.globalConfig } : null;
  if (globalConfig) {
    delete globalConfig.logoHash;
    delete globalConfig.faviconHash;
    delete globalConfig.apiPublicKey;
    delete globalConfig.apiPrivateKey;
    // Switching payload encryption on the first time makes its key pair (reference §1.5); later
    // switches keep it, so clients holding the published key keep working.
    if (globalConfig.apiEncryption && !(await app.settings.get()).globalConfig.apiPublicKey) {
      const keys = generateApiKeyPair(app.env.xorKey);
      globalConfig.apiPublicKey = keys.publicKey;
      globalConfig.apiPrivateKey = keys.privateKey;
    }
  }
  return app.settings.update({
    accountPolicy: model.accountPolicy ?? null,
    globalConfig,
    containerPolicy: model.containerPolicy ?? null,
  });
}

/**
 * Stores the logo (640 px wide) and favicon (256 px) as WebP and points the settings at them; the
 * previous files lose their reference only once the new ones are in place.
 */
export async function updateLogo(
  app: FastifyInstance,
  image: Buffer,
): Promise<{ logoHash: string; faviconHash: string }> {
  const [logo, favicon] = await Promise.all([
    toWebp(image, { width: LOGO_WIDTH }),
    toWebp(image, { width: FAVICON_WIDTH }),
  ]);
  const { dataDir } = app.env;
  const previous = (await getConfig(app)).globalConfig;
  const storedLogo = await storeFile(app.db, dataDir, { buffer: logo, name: 'logo' });
  const storedFavicon = await storeFile(app.db, dataDir, { buffer: favicon, name: 'favicon' });
  try {
    await app.settings.update({ globalConfig: { logoHash: storedLogo.hash, faviconHash: storedFavicon.hash } });
  } catch (error) {
    await releaseFile(app.db, dataDir, storedLogo.hash);
    await releaseFile(app.db, dataDir, storedFavicon.hash);
    throw error;
  }
  await releasePrevious(app, previous);
  return { logoHash: storedLogo.hash, faviconHash: storedFavicon.hash };
}

export async function resetLogo(app: FastifyInstance): Promise<void> {
  const previous = (await getConfig(app)).globalConfig;
  await app.settings.update({ globalConfig: { logoHash: null, faviconHash: null } });
  await releasePrevious(app, previous);
}

async function releasePrevious(
  app: FastifyInstance,
  previous: { logoHash: string | null; faviconHash: string | null },
) {
  for (const hash of [previous.logoHash, previous.faviconHash]) {
    if (hash) await releaseFile(app.db, app.env.dataDir, hash);
  }
}
