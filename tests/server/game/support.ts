import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { games } from '../../../server/src/db/schema';
import { createTeam } from '../db/fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import type { Engine } from '../helpers/database';
import { asUser } from '../helpers/users';
import { assertOk, client, createChallenge, createGame, type Client } from '../edit/support';

export { assertError, assertOk, client, type Client } from '../edit/support';

const HOUR = 3_600_000;

/** A running game (or with overrides) created by an admin through the edit API. */
/**
 * The suite's app on `engine` and an Admin's client, made before its tests and closed after them
 * (call it inside `describe`). Both may be named from then on: they forward to what `before` made.
 */
export function suiteWithAdmin(engine: Engine): { ctx: TestApp; admin: Client } {
  let made: { ctx: TestApp; admin: Client } | undefined;
  before(async () => {
    const ctx = await createTestApp(engine);
    made = { ctx, admin: client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie) };
  });
  after(async () => made?.ctx.close());
  const current = () => {
    if (!made) throw new Error('the suite has not started: use its app from within a test or hook');
    return made;
  };
  const ctx: TestApp = {
    get app() {
      return current().ctx.app;
    },
    get database() {
      return current().ctx.database;
    },
    get env() {
      return current().ctx.env;
    },
    close: () => current().ctx.close(),
  };
  return { ctx, admin: (...args) => current().admin(...args) };
}

export async function newGame(admin: Client, overrides: Record<string, unknown> = {}) {
  return createGame(admin, { acceptWithoutReview: true, ...overrides });
}

/** An enabled challenge with the given static flags (none for DynamicContainer). */
export async function newChallenge(
  admin: Client,
  gameId: number,
  options: { type?: string; flags?: string[]; flagTemplate?: string; disableBloodBonus?: boolean } = {},
) {
  const challenge = await createChallenge(admin, gameId, options.type ?? 'StaticAttachment');
  if (options.flags?.length) {
    const response = await admin(
      'POST',
      `/api/edit/games/${gameId}/challenges/${challenge.id}/flags`,
      options.flags.map((flag) =>
        options.type === 'DynamicAttachment'
          ? { flag, attachmentType: 'Remote', remoteUrl: `https://example.com/${encodeURIComponent(flag)}` }
          : { flag, attachmentType: 'None' },
      ),
    );
    assert.equal(response.statusCode, 200, response.body);
  }
  const update = await admin('PUT', `/api/edit/games/${gameId}/challenges/${challenge.id}`, {
    isEnabled: true,
    ...(options.flagTemplate ? { flagTemplate: options.flagTemplate } : {}),
    ...(options.disableBloodBonus ? { disableBloodBonus: true } : {}),
  });
  assert.equal(update.statusCode, 200, update.body);
  return challenge;
}

/** A signed-in user captaining a fresh team. */
export async function newPlayer(app: FastifyInstance) {
  const { user, cookie } = await asUser(app);
  const team = await createTeam(app.db, user.id);
  return { user, cookie, team, api: client(app, cookie) };
}

export type Player = Awaited<ReturnType<typeof newPlayer>>;

export async function join(player: Player, gameId: number, body: Record<string, unknown> = {}) {
  return player.api('POST', `/api/game/${gameId}`, { teamId: player.team.id, ...body });
}

/** A player whose team is Accepted in the game (the game accepts without review). */
export async function acceptedPlayer(app: FastifyInstance, gameId: number) {
  const player = await newPlayer(app);
  const response = await join(player, gameId);
  assert.equal(response.statusCode, 200, response.body);
  return player;
}

export async function setTimes(app: FastifyInstance, gameId: number, startOffset: number, endOffset: number) {
  const now = Date.now();
  await app.db
    .update(games)
    .set({ startAt: new Date(now + startOffset), endAt: new Date(now + endOffset) })
    .where(eq(games.id, gameId));
  // A direct write bypasses the scoreboardChanged events that regenerate the board (and its remembered start time).
  app.scoreboards.refresh(gameId, true);
  await app.scoreboards.idle();
}

export const times = { HOUR };

/** Submits a flag and returns the acknowledged submission id. */
export async function submit(player: Player, gameId: number, challengeId: number, flag: string) {
  const response = await player.api('POST', `/api/game/${gameId}/challenges/${challengeId}`, { flag });
  return assertOk('gameSubmit', response) as number;
}

export async function settle(app: FastifyInstance) {
  await app.flagChecker.idle();
  await app.scoreboards.idle();
}

export async function statusOf(player: Player, gameId: number, challengeId: number, id: number) {
  const response = await player.api('GET', `/api/game/${gameId}/challenges/${challengeId}/status/${id}`);
  return assertOk('gameStatus', response) as string;
}
