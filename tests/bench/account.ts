/**
 * Accounts under load, over real sockets with the load generator in its own process: sign-ins per
 * second (argon2 verification included, so CPU-bound by design) and profile reads per second with a
 * session cookie. Uses PostgreSQL when DATABASE_URL is set, else PGlite in memory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { users } from '../../server/src/db/schema';
import { loadEnv } from '../../server/src/env';
import { hashPassword } from '../../server/src/lib/password';
import { line, load } from './harness';
import type { LoadJob } from './load';

const PLAYERS = 50;
const PASSWORD = 'Bench-Passw0rd';

export async function benchAccount(): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-account-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'none'),
  });
  const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
  // Rate limits off: the bench measures the server, not the Register policy's budget.
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const out = [`engine: ${database.kind}`];
  try {
    const passwordHash = await hashPassword(PASSWORD);
    const suffix = Date.now().toString(36);
    const names = Array.from({ length: PLAYERS }, (_, index) => `bench${index}${suffix}`.slice(0, 15));
    await app.db
      .insert(users)
      .values(
        names.map((userName) => ({ userName, email: `${userName}@example.com`, passwordHash, emailConfirmed: true })),
      );

    const logins: LoadJob['targets'] = names.map((userName) => ({
      method: 'POST',
      path: '/api/account/login',
      body: JSON.stringify({ userName, password: PASSWORD }),
    }));
    out.push(
      line('POST /api/account/login', await load({ origin, targets: logins, connections: 16, durationMs: 5000 })),
    );

    const profiles: LoadJob['targets'] = [];
    for (const userName of names) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName, password: PASSWORD },
      });
      const cookie = response.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
      profiles.push({ method: 'GET', path: '/api/account/profile', headers: { cookie } });
    }
    out.push(
      line('GET /api/account/profile', await load({ origin, targets: profiles, connections: 32, durationMs: 5000 })),
    );
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}
