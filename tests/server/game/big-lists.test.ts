import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { cheatInfo, gameEvents, submissions, teams as teamsTable } from '../../../server/src/db/schema';
import type { AnswerResult } from '../../../server/src/db/schema/enums';
import { createChallenge, createGame, createTeam, createUser } from '../db/fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { attachWriteup, joinTeam } from '../edit/support';
import { assertError, assertOk, client, type Client } from './support';

const total = (response: LightMyRequestResponse) => Number(response.headers['x-total-count']);

/**
 * The monitor and admin lists that reach thousands: paged, narrowed by the extra
 * `search`/`type` parameters, with the number of matches in `X-Total-Count`; GZCTF's own parameters
 * keep their meaning and bad values answer 400 with a title.
 */
for (const engine of engines()) {
  describe(`big lists (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Client;
    let gameId: number;
    const teams: Array<Awaited<ReturnType<typeof joinTeam>>> = [];

    before(async () => {
      ctx = await createTestApp(engine);
      admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      const db = ctx.app.db;
      gameId = (await createGame(db)).id;
      for (const name of ['Alpha squad', 'Beta crew', 'Gamma']) {
        const joined = await joinTeam(db, gameId, 'Accepted');
        await db.update(teamsTable).set({ name }).where(eq(teamsTable.id, joined.team.id));
        teams.push({ ...joined, team: { ...joined.team, name } });
      }
      const warmup = await createChallenge(db, gameId, { title: 'Warmup', isEnabled: true });
      const crypto = await createChallenge(db, gameId, { title: 'Crypto 100', isEnabled: true });
      // 30 submissions, one a second, cycling teams, challenges and results; the 30th is the newest.
      const statuses: AnswerResult[] = ['WrongAnswer', 'Accepted', 'CheatDetected'];
      const start = Date.now() - 3_600_000;
      const rows = await db
        .insert(submissions)
        .values(
          Array.from({ length: 30 }, (_, index) => {
            const team = teams[index % 3]!;
            return {
              answer: `flag{answer_${index + 1}}`,
              status: statuses[index % 3]!,
              submittedAt: new Date(start + (index + 1) * 1000),
              userId: team.captain.id,
              teamId: team.team.id,
              participationId: team.participation.id,
              gameId,
              challengeId: (index % 2 === 0 ? warmup : crypto).id,
            };
          }),
        )
        .returning({ id: submissions.id, status: submissions.status });
      // Every CheatDetected submission (from Gamma) used Alpha's flag.
      await db.insert(cheatInfo).values(
        rows
          .filter((row) => row.status === 'CheatDetected')
          .map((row) => ({
            submissionId: row.id,
            gameId,
            submitParticipationId: teams[2]!.participation.id,
            sourceParticipationId: teams[0]!.participation.id,
          })),
      );
      await db.insert(gameEvents).values(
        Array.from({ length: 12 }, (_, index) => ({
          gameId,
          type: index % 4 === 0 ? ('ContainerStart' as const) : ('FlagSubmit' as const),
          values: ['WrongAnswer', `flag{event_${index + 1}}`, 'Warmup'],
          at: new Date(start + (index + 1) * 1000),
          userId: teams[index % 3]!.captain.id,
          teamId: teams[index % 3]!.team.id,
        })),
      );
    });
    after(async () => ctx.close());

    test('submissions: pages, result filter and search, with the number of matches', async () => {
      const first = await admin('GET', `/api/game/${gameId}/submissions?count=10&skip=0`);
      const page = assertOk('gameSubmissions', first) as Array<{ answer: string; team: string }>;
      assert.equal(total(first), 30);
      assert.deepEqual(
        page.map((row) => row.answer),
        Array.from({ length: 10 }, (_, index) => `flag{answer_${30 - index}}`),
      );
      const last = await admin('GET', `/api/game/${gameId}/submissions?count=10&skip=25`);
      assert.equal((assertOk('gameSubmissions', last) as unknown[]).length, 5);

      // GZCTF's default: 100 newest, every result.
      const plain = await admin('GET', `/api/game/${gameId}/submissions`);
      assert.equal((assertOk('gameSubmissions', plain) as unknown[]).length, 30);

      const beta = await admin('GET', `/api/game/${gameId}/submissions?search=BETA&count=4`);
      const betaRows = assertOk('gameSubmissions', beta) as Array<{ team: string; status: string }>;
      assert.equal(total(beta), 10);
      assert.equal(betaRows.length, 4);
      assert.ok(betaRows.every((row) => row.team === 'Beta crew' && row.status === 'Accepted'));

      const narrowed = await admin('GET', `/api/game/${gameId}/submissions?type=WrongAnswer&search=crypto`);
      const narrowedRows = assertOk('gameSubmissions', narrowed) as Array<{ challenge: string; status: string }>;
      assert.equal(total(narrowed), 5);
      assert.ok(narrowedRows.every((row) => row.challenge === 'Crypto 100' && row.status === 'WrongAnswer'));

      const answer = await admin('GET', `/api/game/${gameId}/submissions?search=answer_7}`);
      assert.deepEqual(
        (assertOk('gameSubmissions', answer) as Array<{ answer: string }>).map((row) => row.answer),
        ['flag{answer_7}'],
      );
      // `%` and `_` match themselves, not "anything".
      const wildcard = await admin('GET', `/api/game/${gameId}/submissions?search=%25`);
      assert.equal(total(wildcard), 0);
    });

    test('events: type and search on the server, with the number of matches', async () => {
      const all = await admin('GET', `/api/game/${gameId}/events?count=5`);
      assert.equal((assertOk('gameEvents', all) as unknown[]).length, 5);
      assert.equal(total(all), 12);
      const hidden = await admin('GET', `/api/game/${gameId}/events?hideContainer=true&count=5`);
      assert.equal(total(hidden), 9);
      const starts = await admin('GET', `/api/game/${gameId}/events?type=ContainerStart`);
      const startRows = assertOk('gameEvents', starts) as Array<{ type: string }>;
      assert.equal(total(starts), 3);
      assert.ok(startRows.every((row) => row.type === 'ContainerStart'));
      const byValue = await admin('GET', `/api/game/${gameId}/events?search=event_12`);
      assert.equal(total(byValue), 1);
      const byTeam = await admin('GET', `/api/game/${gameId}/events?type=FlagSubmit&search=gamma`);
      const teamRows = assertOk('gameEvents', byTeam) as Array<{ team: string }>;
      assert.equal(total(byTeam), 3);
      assert.ok(teamRows.every((row) => row.team === 'Gamma'));
    });

    test('cheat records: every one by default, or pages and search on request', async () => {
      const all = await admin('GET', `/api/game/${gameId}/cheatinfo`);
      const rows = assertOk('gameCheatInfo', all) as Array<{ submission: { answer: string; time: number } }>;
      assert.equal(rows.length, 10);
      assert.equal(total(all), 10);
      assert.deepEqual(
        rows.map((row) => row.submission.time),
        [...rows.map((row) => row.submission.time)].sort((a, b) => b - a),
      );
      const page = await admin('GET', `/api/game/${gameId}/cheatinfo?count=3&skip=9`);
      assert.equal((assertOk('gameCheatInfo', page) as unknown[]).length, 1);
      const owned = await admin('GET', `/api/game/${gameId}/cheatinfo?search=alpha`);
      assert.equal(total(owned), 10);
      const one = await admin('GET', `/api/game/${gameId}/cheatinfo?search=answer_30`);
      assert.deepEqual(
        (assertOk('gameCheatInfo', one) as typeof rows).map((row) => row.submission.answer),
        ['flag{answer_30}'],
      );
      const none = await admin('GET', `/api/game/${gameId}/cheatinfo?search=beta`);
      assert.deepEqual(assertOk('gameCheatInfo', none), []);
      assert.equal(total(none), 0);
    });

    test('writeups: every one by default, or pages and team search on request', async () => {
      const base = Date.now() - 60_000;
      for (const [index, team] of teams.entries()) {
        await attachWriteup(
          ctx.app.db,
          ctx.app.env.dataDir,
          team.participation.id,
          `pdf ${index}`,
          new Date(base + index),
        );
      }
      const all = await admin('GET', `/api/admin/writeups/${gameId}`);
      const rows = assertOk('adminWriteups', all) as Array<{ team: { name: string } }>;
      assert.deepEqual(
        rows.map((row) => row.team.name),
        ['Gamma', 'Beta crew', 'Alpha squad'],
      );
      assert.equal(total(all), 3);
      const page = await admin('GET', `/api/admin/writeups/${gameId}?count=1&skip=1`);
      assert.deepEqual(
        (assertOk('adminWriteups', page) as typeof rows).map((row) => row.team.name),
        ['Beta crew'],
      );
      const found = await admin('GET', `/api/admin/writeups/${gameId}?search=squad`);
      assert.equal(total(found), 1);
    });

    test('admin users and teams: search on the paged list, `total` counts the matches', async () => {
      const db = ctx.app.db;
      const marker = `zq${Date.now().toString(36)}`;
      for (let index = 0; index < 7; index += 1) {
        const user = await createUser(db, { userName: `${marker}_${index}`, email: `${marker}_${index}@example.org` });
        await createTeam(db, user.id, { name: `${marker} team ${index}` });
      }
      const users = await admin('GET', `/api/admin/users?search=${marker.toUpperCase()}&count=5&skip=5`);
      const userPage = assertOk('adminGetUsers', users) as { data: Array<{ userName: string }>; total: number };
      assert.equal(userPage.total, 7);
      assert.deepEqual(
        userPage.data.map((user) => user.userName),
        [`${marker}_5`, `${marker}_6`],
      );
      const teamPage = assertOk('adminGetTeams', await admin('GET', `/api/admin/teams?search=${marker}&count=3`)) as {
        data: Array<{ name: string }>;
        total: number;
        length: number;
      };
      assert.equal(teamPage.total, 7);
      assert.equal(teamPage.length, 3);
      const everyone = assertOk('adminGetUsers', await admin('GET', '/api/admin/users?count=1')) as { total: number };
      assert.ok(everyone.total > 7);
    });

    test('bad paging or filter values answer 400 with a title; players get 403', async () => {
      for (const [operation, url] of [
        ['gameSubmissions', `/api/game/${gameId}/submissions?count=-1`],
        ['gameSubmissions', `/api/game/${gameId}/submissions?type=Bogus`],
        ['gameSubmissions', `/api/game/${gameId}/submissions?search=${'x'.repeat(65)}`],
        ['gameEvents', `/api/game/${gameId}/events?skip=-5`],
        ['gameEvents', `/api/game/${gameId}/events?type=Nope`],
        ['gameCheatInfo', `/api/game/${gameId}/cheatinfo?count=501`],
        ['gameCheatInfo', `/api/game/${gameId}/cheatinfo?skip=abc`],
        ['adminWriteups', `/api/admin/writeups/${gameId}?count=x`],
        ['adminGetUsers', `/api/admin/users?count=501`],
        ['adminGetTeams', `/api/admin/teams?search=${'y'.repeat(65)}`],
      ] as const) {
        assertError(operation, await admin('GET', url), 400);
      }
      const player = client(ctx.app, (await asUser(ctx.app)).cookie);
      assertError('gameSubmissions', await player('GET', `/api/game/${gameId}/submissions?search=a`), 403);
    });
  });
}
