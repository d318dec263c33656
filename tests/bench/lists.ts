/**
 * Big lists and exports at event scale, on a game seeded with 4,000 teams and
 * 50,000 submissions (PostgreSQL when DATABASE_URL is set, else PGlite in memory, noted as such):
 *
 * - the admin review page in Chromium: time from navigation to the first participation card (target
 *   ≤ 2 s), and from clicking Accept on a pending team to its card showing the new status (≤ 1 s);
 * - the submissions sheet export: its duration and size, and the p99 of another request (the game's
 *   detail, from the load generator in its own process) while exports run back to back (≤ 100 ms),
 *   beside the same request's p99 with no export running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { chromium } from 'playwright-core';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { games } from '../../server/src/db/schema';
import { loadEnv } from '../../server/src/env';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { ensureClientBuilt } from '../../server/src/tools/client-build';
import { listSubmissions } from '../../server/src/modules/submissions/monitor.repository';
import { asUser } from '../server/helpers/users';
import { line, load } from './harness';

/**
 * Whether the page holds an element matching `selector`: run in the page by `waitForFunction`, as a
 * function (a string needs the eval the page's CSP forbids), typed without the DOM's types, which
 * this file is compiled without.
 */
const present = (selector: string) =>
  (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document.querySelector(
    selector,
  ) !== null;

const ROOT = path.resolve(__dirname, '../..');
const TEAMS = 4000;
const SUBMISSIONS = 50_000;
const CHALLENGES = 20;

const verdict = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');

export async function benchLists(): Promise<string[]> {
  const distDir = path.join(ROOT, 'dist');
  ensureClientBuilt(distDir, (text) => process.stdout.write(`${text}\n`));
  const databaseUrl = process.env.DATABASE_URL;
  const database = await openDatabase({ databaseUrl });
  const out: string[] = [
    `-- engine: ${database.kind}${databaseUrl ? '' : ' (no DATABASE_URL: the targets are for PostgreSQL)'}`,
  ];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lists-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const db = app.db;
    if (database.kind === 'postgres') await db.execute(sql`vacuum analyze`);
    const { cookie } = await asUser(app, 'Admin');
    const keys = generateGameKeys(undefined);
    const now = Date.now();
    const [game] = await db
      .insert(games)
      .values({
        title: 'bench-lists',
        ...keys,
        startAt: new Date(now - 7_200_000),
        endAt: new Date(now + 3_600_000),
        divisions: ['Open', 'Student'],
      })
      .returning();
    const gameId = game!.id;
    const seedStarted = performance.now();
    const tag = `l${randomBytes(3).toString('hex')}_`;
    await db.execute(sql`insert into users (user_name, email, password_hash)
      select ${tag} || g, ${tag} || g || '@example.com', 'x' from generate_series(1, ${TEAMS}) g`);
    await db.execute(sql`insert into teams (name, invite_token, captain_id)
      select u.user_name, md5(u.user_name), u.id from users u where u.user_name like ${tag} || '%'`);
    await db.execute(sql`insert into team_members (team_id, user_id)
      select t.id, t.captain_id from teams t where t.name like ${tag} || '%'`);
    // Every fourth team waits for review, the rest play; two divisions.
    await db.execute(sql`insert into participations (game_id, team_id, status, token, division)
      select ${gameId}, t.id, case when t.id % 4 = 0 then 'Pending' else 'Accepted' end::participation_status,
             t.id || ':x', case when t.id % 2 = 0 then 'Open' else 'Student' end
      from teams t where t.name like ${tag} || '%'`);
    await db.execute(sql`insert into user_participations (user_id, game_id, participation_id)
      select t.captain_id, ${gameId}, p.id from participations p join teams t on t.id = p.team_id where p.game_id = ${gameId}`);
    await db.execute(sql`insert into challenges (game_id, title, is_enabled, category)
      select ${gameId}, 'lc' || g, true, (array['Web','Pwn','Crypto','Misc'])[1 + g % 4]::challenge_category
      from generate_series(1, ${CHALLENGES}) g`);
    await db.execute(sql`analyze users, teams, team_members, participations, user_participations, challenges`);
    await db.execute(sql`
      with p as (select id, team_id, row_number() over (order by id) - 1 as n from participations where game_id = ${gameId}),
           c as (select id, row_number() over (order by id) - 1 as n from challenges where game_id = ${gameId}),
           t as (select captain_id, id from teams)
      insert into submissions (answer, status, submitted_at, user_id, team_id, participation_id, game_id, challenge_id)
      select 'flag{wrong-' || g || '}', 'WrongAnswer', now() - interval '1 hour' + g * interval '50 ms',
             t.captain_id, p.team_id, p.id, ${gameId}, c.id
      from generate_series(1, ${SUBMISSIONS}) g
      join p on p.n = g % ${TEAMS}
      join c on c.n = g % ${CHALLENGES}
      join t on t.id = p.team_id`);
    await db.execute(sql`analyze submissions`);
    out.push(
      `seeded ${TEAMS} teams and ${SUBMISSIONS} submissions in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    // ---- the review page in Chromium ----
    const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split(';')[0]!.split('=');
    await context.addCookies([{ name: name!, value: value!, url: origin }]);
    const page = await context.newPage();
    const firstRows: number[] = [];
    for (let visit = 0; visit < 3; visit += 1) {
      const started = performance.now();
      await page.goto(`/admin/games/${gameId}/review`);
      // Checked on every animation frame (the locator's own polling backs off to 500 ms steps).
      await page.waitForFunction(present, 'ul[aria-label="Participations"] > li', { polling: 'raf' });
      firstRows.push(performance.now() - started);
    }
    const cold = firstRows[0]!;
    const warm = [...firstRows.slice(1)].sort((a, b) => a - b)[0]!;
    out.push(
      `review page, first rows: ${cold.toFixed(0)} ms on the first visit, ${warm.toFixed(0)} ms on a reload (target ≤ 2000 ms: ${verdict(Math.max(cold, warm), 2000)})`,
    );
    const changes: number[] = [];
    const puts: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const card = page
        .getByRole('list', { name: 'Participations' })
        .getByRole('listitem')
        .filter({
          has: page.getByRole('button', { name: /^Accept / }),
        });
      const team = (await card.first().getAttribute('aria-label'))!;
      const row = page.getByRole('listitem', { name: team, exact: true });
      const started = performance.now();
      const put = page.waitForResponse((response) => response.request().method() === 'PUT');
      await row.getByRole('button', { name: `Accept ${team}` }).click();
      const answered = (await put).request().timing();
      await page.waitForFunction(present, `button[aria-label="Suspend ${team}"]`, { polling: 'raf' });
      changes.push(performance.now() - started);
      puts.push(answered.responseEnd - answered.requestStart);
    }
    changes.sort((a, b) => a - b);
    puts.sort((a, b) => a - b);
    out.push(
      `review page, status change shown: median ${changes[1]!.toFixed(0)} ms (max ${changes[2]!.toFixed(0)}; target ≤ 1000 ms: ${verdict(changes[1]!, 1000)}); ` +
        `the PUT itself: median ${puts[1]!.toFixed(0)} ms`,
    );
    await context.close();

    // ---- the submissions sheet while others are served ----
    const exportOnce = () =>
      new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
        const started = performance.now();
        http
          .get(`${origin}/api/game/${gameId}/submissionsheet`, { headers: { cookie } }, (response) => {
            let bytes = 0;
            response.on('data', (chunk: Buffer) => (bytes += chunk.length));
            response.on('end', () => resolve({ ms: performance.now() - started, bytes }));
            response.on('error', reject);
          })
          .on('error', reject);
      });
    const other = { origin, targets: [{ method: 'GET' as const, path: `/api/game/${gameId}` }], connections: 8 };
    const quiet = await load({ ...other, durationMs: 3000 });
    out.push(line('game detail, no export running', quiet));
    const during = load({ ...other, durationMs: 6000 });
    const exports: Array<{ ms: number; bytes: number }> = [];
    const until = performance.now() + 5500;
    while (performance.now() < until) exports.push(await exportOnce());
    const busy = await during;
    out.push(line('game detail, during sheet exports', busy));
    const sorted = exports.map((run) => run.ms).sort((a, b) => a - b);
    out.push(
      `submissions sheet: ${exports.length} exports back to back, median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, ` +
        `${(exports[0]!.bytes / 1024 / 1024).toFixed(2)} MiB each`,
    );
    out.push(
      `another request's p99 during the exports: ${busy.p99.toFixed(1)} ms (target ≤ 100 ms: ${verdict(busy.p99, 100)})`,
    );
    // For comparison, what the request thread used to do: the whole workbook in memory, then sent.
    const inMemory = performance.now();
    const rows = await listSubmissions(db, gameId, { count: 0, skip: 0 });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('s');
    for (const row of rows)
      sheet.addRow([row.status, row.team, row.user ?? '', row.challenge, row.answer, row.submittedAt]);
    await workbook.xlsx.writeBuffer();
    out.push(
      `  (reference: the same sheet built in memory on the event loop, as before: ${(performance.now() - inMemory).toFixed(0)} ms, blocking every request)`,
    );

    await db.execute(sql`delete from games where id = ${gameId}`);
    await db.execute(sql`delete from teams where name like ${tag} || '%'`);
    await db.execute(sql`delete from users where user_name like ${tag} || '%'`);
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}
