import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DatabaseHandle, Db } from '../../../server/src/db/client';
import {
  challenges,
  cheatInfo,
  config,
  flags,
  gameEvents,
  gameInstances,
  gameNotices,
  games,
  participations,
  solves,
  submissions,
  teamMembers,
  teams,
  userParticipations,
  users,
} from '../../../server/src/db/schema';
import { engines } from '../helpers/database';
import {
  createChallenge,
  createGame,
  createInstance,
  createParticipation,
  createPlayingTeam,
  createTeam,
  createUser,
  submissionFor,
} from './fixtures';

const journal = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../../../server/src/db/migrations/meta/_journal.json'), 'utf8'),
) as { entries: unknown[] };

const expectedTables = [
  'attachments',
  'challenges',
  'cheat_info',
  'config',
  'containers',
  'files',
  'flags',
  'game_events',
  'game_instances',
  'game_notices',
  'games',
  'installation',
  'logs',
  'participations',
  'posts',
  'sessions',
  'solves',
  'submissions',
  'team_members',
  'teams',
  'user_participations',
  'user_tokens',
  'users',
];

// The database's constraints and racing writes are in constraints.test.ts.
for (const engine of engines()) {
  describe(engine.name, () => {
    let handle: DatabaseHandle;
    let db: Db;

    before(async () => {
      handle = await engine.open();
      db = handle.db;
    });

    after(async () => {
      await handle?.close();
    });

    test('migrations apply', async () => {
      assert.equal(handle.kind, engine.name);
      const tables = await db.execute<{ table_name: string }>(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      assert.deepEqual(
        tables.rows.map((row) => row.table_name),
        expectedTables,
      );
      const applied = await db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      assert.equal(applied.rows[0]?.n, journal.entries.length);
      // The installation's identity: exactly one row, and a second cannot be added.
      const installations = await db.execute<{ n: number }>(sql`select count(*)::int as n from installation`);
      assert.equal(installations.rows[0]?.n, 1);
      await assert.rejects(db.execute(sql`insert into installation (id) values (gen_random_uuid())`));
    });

    test('a user, team, game, participation, challenge and instance round-trip', async () => {
      const captain = await createUser(db, { bio: 'hello', role: 'Admin', realName: 'Ada' });
      const team = await createTeam(db, captain.id, { bio: 'we hack' });
      const start = new Date('2025-06-01T08:00:00.000Z');
      const end = new Date('2025-06-02T08:00:00.000Z');
      const game = await createGame(db, { startAt: start, endAt: end, divisions: ['Open', 'Student'] });
      const participation = await createParticipation(db, game.id, team.id);
      await db
        .insert(userParticipations)
        .values({ userId: captain.id, gameId: game.id, participationId: participation.id });
      const challenge = await createChallenge(db, game.id, {
        category: 'Web',
        type: 'DynamicContainer',
        hints: ['look closer'],
      });
      await createInstance(db, participation.id, challenge.id);

      const [loaded] = await db.select().from(participations).where(eq(participations.id, participation.id));
      assert.ok(loaded);
      assert.equal(loaded.status, 'Pending');
      const [loadedTeam] = await db.select().from(teams).where(eq(teams.id, loaded.teamId));
      assert.ok(loadedTeam);
      assert.equal(loadedTeam.bio, 'we hack');
      const [loadedCaptain] = await db.select().from(users).where(eq(users.id, loadedTeam.captainId));
      assert.equal(loadedCaptain?.userName, captain.userName);
      assert.equal(loadedCaptain?.role, 'Admin');
      assert.deepEqual(
        (await db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id))).map((member) => member.userId),
        [captain.id],
      );
      assert.deepEqual(
        (
          await db.select().from(userParticipations).where(eq(userParticipations.participationId, participation.id))
        ).map((member) => member.userId),
        [captain.id],
      );
      const [loadedGame] = await db.select().from(games).where(eq(games.id, loaded.gameId));
      assert.ok(loadedGame);
      assert.equal(loadedGame.startAt.getTime(), start.getTime());
      assert.equal(loadedGame.endAt.getTime(), end.getTime());
      assert.deepEqual(loadedGame.divisions, ['Open', 'Student']);
      assert.equal(loadedGame.practiceMode, true);
      assert.equal(loadedGame.hidden, false);
      assert.equal(loadedGame.containerCountLimit, 3);
      assert.equal(loadedGame.teamMemberCountLimit, 0);

      const [row] = await db
        .select({ instance: gameInstances, challenge: challenges })
        .from(gameInstances)
        .innerJoin(challenges, eq(challenges.id, gameInstances.challengeId))
        .where(eq(gameInstances.participationId, participation.id));
      assert.ok(row);
      const instance = { ...row.instance, challenge: row.challenge };
      assert.equal(instance.isLoaded, false);
      // GZCTF's entity defaults (§5.5).
      assert.deepEqual(
        {
          title: instance.challenge.title,
          category: instance.challenge.category,
          type: instance.challenge.type,
          hints: instance.challenge.hints,
          isEnabled: instance.challenge.isEnabled,
          originalScore: instance.challenge.originalScore,
          minScoreRate: instance.challenge.minScoreRate,
          difficulty: instance.challenge.difficulty,
          memoryLimit: instance.challenge.memoryLimit,
          cpuCount: instance.challenge.cpuCount,
          storageLimit: instance.challenge.storageLimit,
          containerExposePort: instance.challenge.containerExposePort,
          fileName: instance.challenge.fileName,
          acceptedCount: instance.challenge.acceptedCount,
        },
        {
          title: challenge.title,
          category: 'Web',
          type: 'DynamicContainer',
          hints: ['look closer'],
          isEnabled: false,
          originalScore: 1000,
          minScoreRate: 0.25,
          difficulty: 5,
          memoryLimit: 64,
          cpuCount: 1,
          storageLimit: 256,
          containerExposePort: 80,
          fileName: 'attachment',
          acceptedCount: 0,
        },
      );
    });

    test('the default blood bonus packs +5 % / +3 % / +1 %', async () => {
      const game = await createGame(db);
      const packed = (50 << 20) + (30 << 10) + 10;
      assert.equal(game.bloodBonus, packed);
      assert.deepEqual(
        [(game.bloodBonus >> 20) & 0x3ff, (game.bloodBonus >> 10) & 0x3ff, game.bloodBonus & 0x3ff],
        [50, 30, 10],
      );
    });

    test('roles compare in privilege order', async () => {
      const monitor = await createUser(db, { role: 'Monitor' });
      const banned = await createUser(db, { role: 'Banned' });
      const privileged = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, [monitor.id, banned.id]), sql`${users.role} >= 'Monitor'`));
      assert.deepEqual(privileged, [{ id: monitor.id }]);
    });

    test('deleting a game removes everything that belongs to it', async () => {
      const playing = await createPlayingTeam(db);
      const { gameId } = playing;
      await db
        .insert(userParticipations)
        .values({ userId: playing.captain.id, gameId, participationId: playing.participation.id });
      const [submission] = await db.insert(submissions).values(submissionFor(playing)).returning();
      await db.insert(solves).values({
        participationId: playing.participation.id,
        challengeId: playing.challenge.id,
        submissionId: submission!.id,
        solvedAt: submission!.submittedAt,
      });
      await db.insert(cheatInfo).values({
        submissionId: submission!.id,
        gameId,
        submitParticipationId: playing.participation.id,
        sourceParticipationId: playing.participation.id,
      });
      await db.insert(flags).values({ challengeId: playing.challenge.id, flag: 'flag{static}' });
      await db.insert(gameNotices).values({ gameId, type: 'Normal', values: ['hello'] });
      await db
        .insert(gameEvents)
        .values({ gameId, type: 'FlagSubmit', userId: playing.captain.id, teamId: playing.team.id });
      const untouched = await createPlayingTeam(db);

      await db.delete(games).where(eq(games.id, gameId));

      const remaining = async (table: PgTable, where: SQL) => {
        const [row] = await db.select({ n: count() }).from(table).where(where);
        return row?.n;
      };
      assert.equal(await remaining(challenges, eq(challenges.gameId, gameId)), 0);
      assert.equal(await remaining(flags, eq(flags.challengeId, playing.challenge.id)), 0);
      assert.equal(await remaining(participations, eq(participations.gameId, gameId)), 0);
      assert.equal(await remaining(userParticipations, eq(userParticipations.gameId, gameId)), 0);
      assert.equal(await remaining(gameInstances, eq(gameInstances.participationId, playing.participation.id)), 0);
      assert.equal(await remaining(submissions, eq(submissions.gameId, gameId)), 0);
      assert.equal(await remaining(solves, eq(solves.participationId, playing.participation.id)), 0);
      assert.equal(await remaining(cheatInfo, eq(cheatInfo.gameId, gameId)), 0);
      assert.equal(await remaining(gameNotices, eq(gameNotices.gameId, gameId)), 0);
      assert.equal(await remaining(gameEvents, eq(gameEvents.gameId, gameId)), 0);
      // The team and its members are not the game's, and neither is another game.
      assert.equal(await remaining(teams, eq(teams.id, playing.team.id)), 1);
      assert.equal(await remaining(users, eq(users.id, playing.captain.id)), 1);
      assert.equal(await remaining(challenges, eq(challenges.gameId, untouched.gameId)), 1);
    });

    test('config values upsert by key', async () => {
      const upsert = (key: string, value: string) =>
        db
          .insert(config)
          .values({ key, value })
          .onConflictDoUpdate({ target: config.key, set: { value: sql`excluded.value` } });
      await upsert('globalConfig.title', '"GZ"');
      await upsert('globalConfig.title', '"Hack"');
      await upsert('globalConfig.slogan', '"fun"');
      const rows = await db
        .select()
        .from(config)
        .where(inArray(config.key, ['globalConfig.title', 'globalConfig.slogan']))
        .orderBy(config.key);
      assert.deepEqual(rows, [
        { key: 'globalConfig.slogan', value: '"fun"' },
        { key: 'globalConfig.title', value: '"Hack"' },
      ]);
    });
  });
}
