import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app';
import type { Engine } from '../helpers/database';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { games, participations, teamMembers, teams, userParticipations } from '../../../server/src/db/schema';
import { assertMatchesContract } from '../helpers/contract';
import { asUser, type TestUser } from '../helpers/users';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Player {
  user: TestUser;
  cookie: string;
}

/** A signed-in caller: `call(method, url, payload?)`. JSON strings are sent as JSON, not as text. */
export function caller(app: FastifyInstance, cookie?: string) {
  return (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
}

export async function player(app: FastifyInstance): Promise<Player & { call: ReturnType<typeof caller> }> {
  const { user, cookie } = await asUser(app, 'User');
  return { user, cookie, call: caller(app, cookie) };
}

/** Asserts a `{title, status}` error of the given status that the contract declares for the operation. */
export function assertError(
  operationId: string,
  response: LightMyRequestResponse,
  status: number,
  title?: string | RegExp,
): void {
  assert.equal(
    response.statusCode,
    status,
    `${operationId}: expected ${status}, got ${response.statusCode} ${response.body}`,
  );
  const body = response.json();
  assertMatchesContract(operationId, body, status);
  assert.deepEqual(Object.keys(body).sort(), ['status', 'title']);
  assert.equal(body.status, status);
  if (typeof title === 'string') assert.equal(body.title, title);
  else if (title) assert.match(body.title, title);
}

export const uniqueTeamName = (prefix = 'T') => `${prefix}${randomBytes(4).toString('hex')}`;

export type TeamRow = typeof teams.$inferSelect;

export async function teamRow(app: FastifyInstance, id: number): Promise<TeamRow | undefined> {
  const [row] = await app.db.select().from(teams).where(eq(teams.id, id));
  return row;
}

export async function memberIds(app: FastifyInstance, teamId: number): Promise<string[]> {
  const rows = await app.db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(teamMembers.userId));
  return rows.map((row) => row.userId).sort();
}

export async function captainedCount(app: FastifyInstance, userId: string): Promise<number> {
  return (await app.db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, userId))).length;
}

/** Creates a team through the API and returns its id. */
export async function createTeamVia(owner: { call: ReturnType<typeof caller> }, name = uniqueTeamName()) {
  const response = await owner.call('POST', '/api/team', { name, bio: 'hello' });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { id: number; name: string };
}

/** Joins a team through its invite code. */
export async function joinVia(
  owner: { call: ReturnType<typeof caller> },
  member: { call: ReturnType<typeof caller> },
  teamId: number,
) {
  const code = (await owner.call('GET', `/api/team/${teamId}/invite`)).json() as string;
  const response = await member.call('POST', '/api/team/accept', code);
  assert.equal(response.statusCode, 200, response.body);
}

const HOUR = 3_600_000;

/**
 * A game ending `endsInMs` from now (negative: already over), straight into the database. It started
 * an hour before it ends, or before now, unless `startsInMs` says otherwise.
 */
export async function insertGame(app: FastifyInstance, endsInMs: number, startsInMs = Math.min(endsInMs, 0) - HOUR) {
  const now = Date.now();
  const [game] = await app.db
    .insert(games)
    .values({
      title: `game ${randomBytes(3).toString('hex')}`,
      publicKey: 'pub',
      privateKey: 'priv',
      startAt: new Date(now + startsInMs),
      endAt: new Date(now + endsInMs),
    })
    .returning();
  return game!;
}

/** The team in the game, with the given members registered for it. */
export async function insertParticipation(app: FastifyInstance, gameId: number, teamId: number, userIds: string[]) {
  const [participation] = await app.db
    .insert(participations)
    .values({ gameId, teamId, token: `${teamId}:signature`, status: 'Accepted' })
    .returning();
  for (const userId of userIds) {
    await app.db.insert(userParticipations).values({ userId, gameId, participationId: participation!.id });
  }
  return participation!;
}

export async function registeredUsers(app: FastifyInstance, participationId: number): Promise<string[]> {
  const rows = await app.db
    .select({ userId: userParticipations.userId })
    .from(userParticipations)
    .where(eq(userParticipations.participationId, participationId));
  return rows.map((row) => row.userId).sort();
}

export const ONE_HOUR = HOUR;

/** A captain with a fresh team and `extra` members who joined through the invite code. */
export async function teamWith(app: FastifyInstance, extra = 1) {
  const captain = await player(app);
  const team = await createTeamVia(captain);
  const members: Array<Player & { call: ReturnType<typeof caller> }> = [];
  for (let i = 0; i < extra; i++) {
    const member = await player(app);
    await joinVia(captain, member, team.id);
    members.push(member);
  }
  return { captain, team, members };
}

/**
 * Called inside a describe block: a test app per engine, opened before the block's tests and closed
 * after them, with an anonymous caller; `suite.ctx` is set once `before` has run.
 */
export function teamSuite(engine: Engine) {
  const suite = {} as {
    ctx: TestApp;
    anonymous: ReturnType<typeof caller>;
    teamWith: (extra?: number) => ReturnType<typeof teamWith>;
  };
  suite.teamWith = (extra = 1) => teamWith(suite.ctx.app, extra);
  before(async () => {
    suite.ctx = await createTestApp(engine);
    suite.anonymous = caller(suite.ctx.app);
  });
  after(async () => suite.ctx.close());
  return suite;
}
