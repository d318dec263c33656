import { randomBytes } from 'node:crypto';
import type { Db } from '../../../server/src/db/client';
import {
  challenges,
  gameInstances,
  games,
  participations,
  sessions,
  type submissions,
  teamMembers,
  teams,
  users,
} from '../../../server/src/db/schema';
import { hashToken, randomToken } from '../../../server/src/lib/tokens';

// Minimal valid rows, unique per call so tests sharing one database never collide.

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export async function createUser(db: Db, values: Partial<typeof users.$inferInsert> = {}) {
  const suffix = hex(4);
  const [user] = await db
    .insert(users)
    .values({ userName: `u${suffix}`, email: `u${suffix}@example.com`, passwordHash: 'x', ...values })
    .returning();
  return user!;
}

/** A session row for a user (an hour long): the cookie a signed-in browser would send. */
export async function createSessionCookie(db: Db, userId: string): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    id: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + 3_600_000),
    ip: null,
    userAgent: null,
  });
  return `GZCTF_Token=${token}`;
}

export async function createTeam(db: Db, captainId: string, values: Partial<typeof teams.$inferInsert> = {}) {
  const [team] = await db
    .insert(teams)
    .values({ name: `team ${hex(3)}`, inviteToken: hex(16), captainId, ...values })
    .returning();
  await db.insert(teamMembers).values({ teamId: team!.id, userId: captainId });
  return team!;
}

export async function createGame(db: Db, values: Partial<typeof games.$inferInsert> = {}) {
  const now = Date.now();
  const [game] = await db
    .insert(games)
    .values({
      title: `game ${hex(3)}`,
      publicKey: 'pub',
      privateKey: 'priv',
      startAt: new Date(now - 3_600_000),
      endAt: new Date(now + 3_600_000),
      ...values,
    })
    .returning();
  return game!;
}

export async function createParticipation(db: Db, gameId: number, teamId: number) {
  const [participation] = await db
    .insert(participations)
    .values({ gameId, teamId, token: `${teamId}:signature` })
    .returning();
  return participation!;
}

export async function createChallenge(db: Db, gameId: number, values: Partial<typeof challenges.$inferInsert> = {}) {
  const [challenge] = await db
    .insert(challenges)
    .values({ gameId, title: `challenge ${hex(3)}`, ...values })
    .returning();
  return challenge!;
}

export async function createInstance(db: Db, participationId: number, challengeId: number) {
  const [instance] = await db.insert(gameInstances).values({ participationId, challengeId }).returning();
  return instance!;
}

/** A team (with captain) accepted into a game that has one challenge, and its instance. */
export async function createPlayingTeam(db: Db, gameId?: number) {
  const captain = await createUser(db);
  const team = await createTeam(db, captain.id);
  const game = gameId === undefined ? await createGame(db) : { id: gameId };
  const participation = await createParticipation(db, game.id, team.id);
  const challenge = await createChallenge(db, game.id, { isEnabled: true });
  const instance = await createInstance(db, participation.id, challenge.id);
  return { captain, team, gameId: game.id, participation, challenge, instance };
}

export function submissionFor(
  playing: Awaited<ReturnType<typeof createPlayingTeam>>,
  answer = 'flag{test}',
): typeof submissions.$inferInsert {
  return {
    answer,
    userId: playing.captain.id,
    teamId: playing.team.id,
    participationId: playing.participation.id,
    gameId: playing.gameId,
    challengeId: playing.challenge.id,
  };
}
