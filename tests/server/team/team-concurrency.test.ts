import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { teamMembers, teams } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { captainedCount, createTeamVia, joinVia, memberIds, player, teamRow } from './support';

// Architecture §6.4: the rules hold however requests race. The create-team rate limit (one at a time,
// GZCTF's `Concurrency` policy) is widened here so the requests really run side by side and the
// database locks and constraints are what is tested.

const statuses = (responses: { statusCode: number }[]) => responses.map((response) => response.statusCode).sort();

for (const engine of engines()) {
  describe(`team concurrency (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine, { rateLimit: { concurrency: { concurrent: 100, queue: 100 } } });
    });
    after(async () => ctx.close());

    /** Every team has a captain who is one of its members. */
    async function assertCaptainIsMember(teamId: number) {
      const team = await teamRow(ctx.app, teamId);
      if (!team) return;
      assert.ok((await memberIds(ctx.app, teamId)).includes(team.captainId), `team ${teamId}'s captain left`);
    }

    test('six parallel creates by one user make exactly three teams', async () => {
      const captain = await player(ctx.app);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => captain.call('POST', '/api/team', { name: `race ${i}` })),
      );
      assert.deepEqual(statuses(responses), [200, 200, 200, 400, 400, 400]);
      assert.equal(await captainedCount(ctx.app, captain.user.id), 3);
      const mine = (await captain.call('GET', '/api/team')).json();
      assert.equal(mine.length, 3);
    });

    test('two parallel accepts of one code by one user make one membership', async () => {
      const captain = await player(ctx.app);
      const team = await createTeamVia(captain);
      const code = (await captain.call('GET', `/api/team/${team.id}/invite`)).json();
      for (let round = 0; round < 3; round++) {
        const member = await player(ctx.app);
        const responses = await Promise.all([
          member.call('POST', '/api/team/accept', code),
          member.call('POST', '/api/team/accept', code),
        ]);
        assert.deepEqual(statuses(responses), [200, 400]);
        const rows = await ctx.app.db.select().from(teamMembers).where(eq(teamMembers.userId, member.user.id));
        assert.equal(rows.length, 1);
      }
    });

    test('a transfer racing a kick of the same member never leaves the team without a captain', async () => {
      for (let round = 0; round < 4; round++) {
        const captain = await player(ctx.app);
        const team = await createTeamVia(captain);
        const member = await player(ctx.app);
        await joinVia(captain, member, team.id);
        const [transfer, kick] = await Promise.all([
          captain.call('PUT', `/api/team/${team.id}/transfer`, { newCaptainId: member.user.id }),
          captain.call('POST', `/api/team/${team.id}/kick/${member.user.id}`),
        ]);
        // Exactly one wins: a transfer first makes the kicker a plain member (403); a kick first
        // leaves no member to hand the captaincy to (400).
        assert.deepEqual(
          [transfer.statusCode, kick.statusCode].filter((status) => status === 200),
          [200],
          `${transfer.body} / ${kick.body}`,
        );
        await assertCaptainIsMember(team.id);
      }
    });

    test('a transfer racing the heir leaving never hands the captaincy to a non-member', async () => {
      for (let round = 0; round < 4; round++) {
        const captain = await player(ctx.app);
        const team = await createTeamVia(captain);
        const heir = await player(ctx.app);
        await joinVia(captain, heir, team.id);
        await Promise.all([
          captain.call('PUT', `/api/team/${team.id}/transfer`, { newCaptainId: heir.user.id }),
          heir.call('POST', `/api/team/${team.id}/leave`),
        ]);
        await assertCaptainIsMember(team.id);
      }
    });

    test('parallel transfers and creates cannot push a user past three captaincies', async () => {
      const heir = await player(ctx.app);
      await createTeamVia(heir);
      const donors = await Promise.all(Array.from({ length: 3 }, () => player(ctx.app)));
      const donated: number[] = [];
      for (const donor of donors) {
        const team = await createTeamVia(donor);
        await joinVia(donor, heir, team.id);
        donated.push(team.id);
      }
      const responses = await Promise.all([
        ...donors.map((donor, i) =>
          donor.call('PUT', `/api/team/${donated[i]}/transfer`, { newCaptainId: heir.user.id }),
        ),
        heir.call('POST', '/api/team', { name: 'own one' }),
      ]);
      assert.equal(responses.filter((response) => response.statusCode === 200).length, 2);
      assert.equal(await captainedCount(ctx.app, heir.user.id), 3);
    });

    test('a delete racing a join leaves no member behind', async () => {
      const captain = await player(ctx.app);
      const team = await createTeamVia(captain);
      const code = (await captain.call('GET', `/api/team/${team.id}/invite`)).json();
      const joiners = await Promise.all(Array.from({ length: 3 }, () => player(ctx.app)));
      const responses = await Promise.all([
        captain.call('DELETE', `/api/team/${team.id}`),
        ...joiners.map((joiner) => joiner.call('POST', '/api/team/accept', code)),
      ]);
      assert.equal(responses[0]!.statusCode, 200);
      for (const response of responses.slice(1)) assert.ok([200, 400].includes(response.statusCode), response.body);
      assert.equal((await ctx.app.db.select().from(teams).where(eq(teams.id, team.id))).length, 0);
      assert.deepEqual(await memberIds(ctx.app, team.id), []);
    });
  });
}
