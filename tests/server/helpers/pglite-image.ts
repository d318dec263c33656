import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle, type Db } from '../../../server/src/db/client';

const ROOT = path.resolve(__dirname, '../../..');
const MIGRATIONS = path.join(ROOT, 'server/src/db/migrations');

/** A digest of the migrations (every file under the folder): a new migration makes new images. */
export function migrationsDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(MIGRATIONS, full)).update('\0').update(fs.readFileSync(full));
    }
  };
  walk(MIGRATIONS);
  return hash.digest('hex').slice(0, 16);
}

/** The image's file name: what it is made of, the migrations and the PGlite version. */
function imageName(): string {
  const { version } = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  return `pglite-${version}-${migrationsDigest()}.tar`;
}

async function makeImage(file: string): Promise<void> {
  const handle = await openDatabase({});
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const image = await client.dumpDataDir('none');
    // Written aside, then renamed: test files start in parallel, and a reader must never see half a file.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await handle.close();
  }
}

let imageFile: Promise<string> | undefined;
let image: Promise<Blob> | undefined;

/**
 * A migrated, empty PGlite data directory as a tar file, made once per machine and shared by every
 * test process. A PGlite started from it skips initdb and the migrations, which are most of what a
 * fresh one costs (on a loaded 2-core machine a file of server tests took half the CPU time with
 * it); the server tests open a few hundred.
 */
function migratedPgliteImageFile(): Promise<string> {
  imageFile ??= (async () => {
    const file = path.join(os.tmpdir(), 'ctf-test-images', imageName());
    if (!fs.existsSync(file)) await makeImage(file);
    return file;
  })();
  return imageFile;
}

/** The image as `openDatabase({ pgliteImage })` takes it, read once per process. */
function migratedPgliteImage(): Promise<Blob> {
  image ??= migratedPgliteImageFile().then((file) => new Blob([fs.readFileSync(file)]));
  return image;
}

/**
 * A copy of a migrated database is a new installation: it gets an identity of its own, which the
 * migration would have drawn for it (container labels and shared-cache keys tell databases apart
 * by it).
 */
export async function newIdentity(db: Db): Promise<void> {
  await db.execute(sql`update installation set id = gen_random_uuid()`);
}

/**
 * A new PGlite database started from the image: in memory, or in `dataDir` (which must be empty),
 * with an identity of its own.
 */
export async function openPgliteFromImage(dataDir?: string): Promise<DatabaseHandle> {
  const handle = await openDatabase({ dataDir, pgliteImage: await migratedPgliteImage() });
  await newIdentity(handle.db);
  return handle;
}
