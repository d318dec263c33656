import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { Db } from '../../../server/src/db/client';
import { files, participations } from '../../../server/src/db/schema';
import type { ParticipationStatus } from '../../../server/src/db/schema/enums';
import { storeFile } from '../../../server/src/modules/attachments';
import { assertMatchesContract } from '../helpers/contract';
import { multipart } from '../helpers/multipart';
import { createParticipation, createTeam, createUser } from '../db/fixtures';

const HOUR = 3_600_000;

/** A GameInfoModel body: a game running now unless the times are overridden. */
export function gameBody(overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return { title: `game ${randomBytes(3).toString('hex')}`, start: now - HOUR, end: now + HOUR, ...overrides };
}

/** `inject` as one signed-in user, JSON in and out. */
export function client(app: FastifyInstance, cookie: string | undefined) {
  return (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      headers: cookie ? { cookie } : {},
    });
}

export type Client = ReturnType<typeof client>;

/** Asserts a `{title, status}` error of the given status that the contract allows for the operation. */
export function assertError(operationId: string, response: LightMyRequestResponse, status: number): void {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json<{ title: string; status: number }>();
  assertMatchesContract(operationId, body, status);
  assert.equal(body.status, status);
  assert.ok(body.title.length > 0);
  assert.doesNotMatch(body.title, /^edit\./, 'the message key was translated');
}

export function assertOk(operationId: string, response: LightMyRequestResponse): unknown {
  assert.equal(response.statusCode, 200, response.body);
  const body: unknown = response.json();
  assertMatchesContract(operationId, body);
  return body;
}

export async function createGame(api: Client, overrides: Record<string, unknown> = {}) {
  const response = await api('POST', '/api/edit/games', gameBody(overrides));
  return assertOk('editAddGame', response) as { id: number; title: string; publicKey: string };
}

export async function createChallenge(
  api: Client,
  gameId: number,
  type = 'StaticAttachment',
  title = `challenge ${randomBytes(3).toString('hex')}`,
) {
  const response = await api('POST', `/api/edit/games/${gameId}/challenges`, { title, category: 'Web', type });
  return assertOk('editAddGameChallenge', response) as { id: number; title: string };
}

/** Uploads a file through `POST /api/assets` (one reference) and returns its hash. */
export async function uploadAsset(app: FastifyInstance, cookie: string, content: string | Buffer, name = 'file.bin') {
  const body = multipart([{ field: 'files', filename: name, content }]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/assets',
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<Array<{ hash: string }>>()[0]!.hash;
}

export async function referenceCount(db: Db, hash: string): Promise<number | undefined> {
  const [row] = await db.select().from(files).where(eq(files.hash, hash));
  return row?.referenceCount;
}

export const png = (width = 8, height = 8, colour = '#336699') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** A team (captain included) with a participation of the given status in a game. */
export async function joinTeam(db: Db, gameId: number, status: ParticipationStatus = 'Pending', division?: string) {
  const captain = await createUser(db);
  const team = await createTeam(db, captain.id);
  const participation = await createParticipation(db, gameId, team.id);
  await db
    .update(participations)
    .set({ status, division: division ?? null })
    .where(eq(participations.id, participation.id));
  return { captain, team, participation: { ...participation, status } };
}

/** Stores a writeup PDF for a participation as the team module would. */
export async function attachWriteup(db: Db, dataDir: string, participationId: number, content: string, at: Date) {
  const stored = await storeFile(db, dataDir, { buffer: Buffer.from(content), name: `writeup-${participationId}.pdf` });
  await db
    .update(participations)
    .set({ writeupHash: stored.hash, writeupUploadedAt: at })
    .where(eq(participations.id, participationId));
  return stored.hash;
}
