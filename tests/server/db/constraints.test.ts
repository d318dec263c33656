import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../../server/src/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '../../../server/src/db/errors';
import {
  challenges,
  cheatInfo,
  flags,
  gameInstances,
  solves,
  submissions,
  teams,
  userParticipations,
  users,
} from '../../../server/src/db/schema';
import { engines } from '../helpers/database';
import {
  createGame,
  createInstance,
  createParticipation,
  createPlayingTeam,
  createTeam,
  createUser,
  submissionFor,
} from './fixtures';

/** Passes an expected constraint violation to `assert.rejects` and rethrows anything else. */
const violates = (check: (error: unknown) => boolean) => (error: unknown) => {
  if (check(error)) return true;
  throw error;
};

// What the database itself refuses (uniqueness, references), also under racing transactions; the
// tables, round trips and cascades are in schema.test.ts.
for (const engine of engines()) {
  describe(`constraints (${engine.name})`, () => {
    let handle: DatabaseHandle;
    let db: Database;
    before(async () => {
      handle = await engine.open();
      db = handle.db;
    });
    after(async () => handle?.close());

    test('user names and e-mail addresses are unique regardless of case', async () => {
      const user = await createUser(db);
      await assert.rejects(
        createUser(db, { userName: user.userName.toUpperCase() }),
        violates((error) => isUniqueViolation(error, 'users_user_name_lower_key')),
      );
      await assert.rejects(
        createUser(db, { email: user.email.toUpperCase() }),
        violates((error) => isUniqueViolation(error, 'users_email_lower_key')),
      );
    });

    test('a team captain cannot be deleted while captaining', async () => {
      const captain = await createUser(db);
      const team = await createTeam(db, captain.id);
      await assert.rejects(
        db.delete(users).where(eq(users.id, captain.id)),
        violates((error) => isForeignKeyViolation(error, 'teams_captain_id_users_id_fk')),
      );
      await db.delete(teams).where(eq(teams.id, team.id));
      await db.delete(users).where(eq(users.id, captain.id));
    });

    test('a team joins a game at most once', async () => {
      const captain = await createUser(db);
      const team = await createTeam(db, captain.id);
      const game = await createGame(db);
      await createParticipation(db, game.id, team.id);
      await assert.rejects(
        createParticipation(db, game.id, team.id),
        violates((error) => isUniqueViolation(error, 'participations_game_id_team_id_key')),
      );
    });

    test('a user plays a game in at most one team', async () => {
      const user = await createUser(db);
      const game = await createGame(db);
      const first = await createParticipation(db, game.id, (await createTeam(db, user.id)).id);
      const second = await createParticipation(db, game.id, (await createTeam(db, user.id)).id);
      await db.insert(userParticipations).values({ userId: user.id, gameId: game.id, participationId: first.id });
      await assert.rejects(
        db.insert(userParticipations).values({ userId: user.id, gameId: game.id, participationId: second.id }),
        violates((error) => isUniqueViolation(error, 'user_participations_user_id_game_id_pk')),
      );
      // The copied game id must match the participation's game.
      const otherGame = await createGame(db);
      const other = await createUser(db);
      await assert.rejects(
        db.insert(userParticipations).values({ userId: other.id, gameId: otherGame.id, participationId: first.id }),
        violates((error) => isForeignKeyViolation(error, 'user_participations_participation_fk')),
      );
    });

    test('a team has one instance per challenge, and a dynamic flag goes to one team', async () => {
      const playing = await createPlayingTeam(db);
      await assert.rejects(
        createInstance(db, playing.participation.id, playing.challenge.id),
        violates((error) => isUniqueViolation(error, 'game_instances_participation_id_challenge_id_key')),
      );

      const [flag] = await db
        .insert(flags)
        .values({ challengeId: playing.challenge.id, flag: 'flag{one}' })
        .returning();
      const rival = await createParticipation(db, playing.gameId, (await createTeam(db, (await createUser(db)).id)).id);
      const rivalInstance = await createInstance(db, rival.id, playing.challenge.id);
      await db.update(gameInstances).set({ flagId: flag!.id }).where(eq(gameInstances.id, playing.instance.id));
      await assert.rejects(
        db.update(gameInstances).set({ flagId: flag!.id }).where(eq(gameInstances.id, rivalInstance.id)),
        violates((error) => isUniqueViolation(error, 'game_instances_flag_id_key')),
      );
    });

    test('20 racing solves of one challenge by one team leave exactly one row', async () => {
      const playing = await createPlayingTeam(db);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const [submission] = await tx.insert(submissions).values(submissionFor(playing)).returning();
            await tx.insert(solves).values({
              participationId: playing.participation.id,
              challengeId: playing.challenge.id,
              submissionId: submission!.id,
              solvedAt: submission!.submittedAt,
            });
          }),
        ),
      );
      const rejected = results.filter((result) => result.status === 'rejected');
      assert.equal(results.length - rejected.length, 1);
      for (const result of rejected) {
        assert.ok(isUniqueViolation(result.reason, 'solves_participation_id_challenge_id_pk'), String(result.reason));
      }
      const [solveCount] = await db
        .select({ n: count() })
        .from(solves)
        .where(eq(solves.participationId, playing.participation.id));
      assert.equal(solveCount?.n, 1);
      // The losers rolled back their submissions with their solves.
      const [submissionCount] = await db
        .select({ n: count() })
        .from(submissions)
        .where(eq(submissions.participationId, playing.participation.id));
      assert.equal(submissionCount?.n, 1);
    });

    test('the flag checker pattern counts a racing team once', async () => {
      const playing = await createPlayingTeam(db);
      const firsts = await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const [submission] = await tx
              .insert(submissions)
              .values({ ...submissionFor(playing), status: 'Accepted' })
              .returning();
            const landed = await tx
              .insert(solves)
              .values({
                participationId: playing.participation.id,
                challengeId: playing.challenge.id,
                submissionId: submission!.id,
                solvedAt: submission!.submittedAt,
              })
              .onConflictDoNothing()
              .returning();
            if (landed.length === 0) return false;
            await tx
              .update(challenges)
              .set({ acceptedCount: sql`${challenges.acceptedCount} + 1` })
              .where(eq(challenges.id, playing.challenge.id));
            return true;
          }),
        ),
      );
      assert.equal(firsts.filter(Boolean).length, 1);
      const challenge = await db.query.challenges.findFirst({ where: eq(challenges.id, playing.challenge.id) });
      assert.equal(challenge?.acceptedCount, 1);
      const [accepted] = await db
        .select({ n: count() })
        .from(submissions)
        .where(and(eq(submissions.participationId, playing.participation.id), eq(submissions.status, 'Accepted')));
      assert.equal(accepted?.n, 20);
    });

    test('a submission has at most one cheat record', async () => {
      const owner = await createPlayingTeam(db);
      const cheater = await createParticipation(db, owner.gameId, (await createTeam(db, (await createUser(db)).id)).id);
      const [submission] = await db
        .insert(submissions)
        .values({
          ...submissionFor(owner),
          participationId: cheater.id,
          teamId: cheater.teamId,
          status: 'CheatDetected',
        })
        .returning();
      const record = {
        submissionId: submission!.id,
        gameId: owner.gameId,
        submitParticipationId: cheater.id,
        sourceParticipationId: owner.participation.id,
      };
      await db.insert(cheatInfo).values(record);
      await assert.rejects(
        db.insert(cheatInfo).values(record),
        violates((error) => isUniqueViolation(error, 'cheat_info_pkey')),
      );
    });
  });
}
