import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { exportSheet, MAX_EXPORTS } from '../../../server/src/modules/scoreboard/sheet-export';
import { sheetLabelTexts } from '../../../server/src/modules/scoreboard/sheets';
import { acceptedPlayer, client, newChallenge, newGame } from './support';

const ROWS = 2_500;

for (const engine of engines()) {
  describe(`sheet exports stream from a worker (${engine.name})`, () => {
    let ctx: TestApp;
    let base: string;
    let cookie: string;
    let gameId: number;

    before(async () => {
      ctx = await createTestApp(engine);

      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      const admin = client(ctx.app, cookie);
      const game = await newGame(admin);
      gameId = game.id;
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{x}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      // Seeded in one statement: one wrong answer a second, the newest first in the sheet.
      await ctx.app.db.execute(sql`
        insert into submissions (answer, status, submitted_at, user_id, team_id, participation_id, game_id, challenge_id)
        select 'answer ' || n, 'WrongAnswer', timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second',
               ${player.user.id}::uuid, ${player.team.id}, p.id, ${game.id}, ${challenge.id}
        from generate_series(1, ${ROWS}) n,
             (select id from participations where game_id = ${game.id} and team_id = ${player.team.id}) p`);
    });
    after(async () => {
      // fetch may hold a spare keep-alive socket that never carried a request; close would wait for it.
      ctx.app.server.closeAllConnections();
      await ctx.close();
    });

    const download = (name: string) => fetch(`${base}/api/game/${gameId}/${name}`, { headers: { cookie } });

    test('the submission sheet is a valid workbook with every row, newest first, in batches', async () => {
      const response = await download('submissionsheet');
      assert.equal(response.status, 200);
      assert.equal(
        response.headers.get('content-type'),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await response.arrayBuffer());
      const sheet = book.worksheets[0]!;
      assert.equal(sheet.rowCount, ROWS + 1);
      assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
        'Status',
        'Team',
        'User',
        'Challenge',
        'Answer',
        'Time',
      ]);
      const time = sheet.getRow(ROWS + 1).getCell(6).value as Date;
      assert.equal(time.toISOString(), '2026-01-01T00:00:01.000Z');
    });

    test('batches follow on without gaps or repeats (keyset reads, small batches)', async () => {
      const labels = sheetLabelTexts((key) => key.replace('game.sheet.', ''));
      const job = {
        kind: 'submissions' as const,
        labels,
        gameId,
        databaseUrl: ctx.env.databaseUrl,
        batchSize: 1000,
      };
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.concat(await exportSheet(job, ctx.app.db).toArray()) as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      assert.equal(sheet.name, 'submissions');
      const answers = Array.from({ length: ROWS }, (_, index) => sheet.getRow(index + 2).getCell(5).value);
      assert.deepEqual(
        answers,
        Array.from({ length: ROWS }, (_, index) => `answer ${ROWS - index}`),
      );
    });

    test('another request is answered while an export is still being read', async () => {
      const response = await download('submissionsheet');
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const first = await reader.read();
      assert.equal(first.done, false);
      // The export is unfinished (its body is not read to the end); the server still answers.
      const other = await fetch(`${base}/api/game/${gameId}`, { headers: { cookie } });
      assert.equal(other.status, 200);
      const rest: Uint8Array[] = [first.value!];
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest.push(chunk.value);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.concat(rest) as unknown as ArrayBuffer);
      assert.equal(book.worksheets[0]!.rowCount, ROWS + 1);
    });

    test('the scoreboard sheet streams too, and a client that goes away stops the export cleanly', async () => {
      const response = await download('scoreboardsheet');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await response.arrayBuffer());
      assert.equal(book.worksheets[0]!.getRow(1).getCell(1).value, 'Rank');
      const abandoned = new AbortController();
      const partial = await fetch(`${base}/api/game/${gameId}/submissionsheet`, {
        headers: { cookie },
        signal: abandoned.signal,
      });
      await Readable.fromWeb(partial.body! as never)
        .take(1)
        .toArray();
      abandoned.abort();
      // The server stays healthy afterwards.
      const again = await download('submissionsheet');
      const whole = new ExcelJS.Workbook();
      await whole.xlsx.load(await again.arrayBuffer());
      assert.equal(whole.worksheets[0]!.rowCount, ROWS + 1);
    });

    test('at most MAX_EXPORTS run at once; one more waits its turn with 429', async () => {
      const labels = sheetLabelTexts((key) => key.replace('game.sheet.', ''));
      const job = { kind: 'submissions' as const, labels, gameId, databaseUrl: ctx.env.databaseUrl, batchSize: 1000 };
      // Unread, each holds its worker (and its place) until read to the end or destroyed.
      const running = Array.from({ length: MAX_EXPORTS }, () => exportSheet(job, ctx.app.db));
      const refused = await fetch(`${base}/api/game/${gameId}/scoreboardsheet`, { headers: { cookie } });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.deepEqual(Object.keys((await refused.json()) as object).sort(), ['status', 'title']);
      // One read to its end and one given up free two places.
      await running[0]!.toArray();
      running[1]!.destroy();
      for (const name of ['scoreboardsheet', 'submissionsheet']) {
        const admitted = await download(name);
        assert.equal(admitted.status, 200, name);
        await admitted.arrayBuffer();
      }
      for (const stream of running.slice(2)) stream.destroy();
    });
  });
}
