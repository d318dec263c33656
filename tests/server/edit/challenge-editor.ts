import { after, before } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { gameNotices } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import type { Engine } from '../helpers/database';
import { asUser } from '../helpers/users';
import { assertOk, client, createGame, type Client } from './support';

/** A challenge as the edit view returns it, with the fields these tests read typed. */
export interface Detail {
  id: number;
  isEnabled: boolean;
  flags: Array<{ id: number; flag: string; attachment: { id: number; type: string; url: string | null } | null }>;
  attachment: { id: number; type: string; url: string | null; fileSize: number | null } | null;
  [key: string]: unknown;
}

export interface ChallengeEditor {
  app: FastifyInstance;
  /** The admin's calls and session cookie. */
  api: Client;
  cookie: string;
  /** A running game the tests add their challenges to. */
  gameId: number;
  url(challengeId?: number, rest?: string): string;
  detail(challengeId: number, game?: number): Promise<Detail>;
  update: (challengeId: number, body: Record<string, unknown>) => ReturnType<Client>;
  addFlags: (challengeId: number, body: unknown[]) => ReturnType<Client>;
  notices(game?: number): Promise<Array<typeof gameNotices.$inferSelect>>;
}

/**
 * Called inside a describe block: one app per engine with an admin signed in and a running game,
 * opened before the block's tests and closed after them. The fields are set once `before` has run.
 */
export function challengeEditor(engine: Engine): ChallengeEditor {
  let ctx: TestApp;
  const editor = {
    url: (challengeId?: number, rest = '') =>
      `/api/edit/games/${editor.gameId}/challenges${challengeId === undefined ? '' : `/${challengeId}`}${rest}`,
    detail: async (challengeId: number, game = editor.gameId) =>
      assertOk(
        'editGetGameChallenge',
        await editor.api('GET', `/api/edit/games/${game}/challenges/${challengeId}`),
      ) as Detail,
    update: (challengeId: number, body: Record<string, unknown>) => editor.api('PUT', editor.url(challengeId), body),
    addFlags: (challengeId: number, body: unknown[]) => editor.api('POST', editor.url(challengeId, '/flags'), body),
    notices: async (game = editor.gameId) =>
      editor.app.db.select().from(gameNotices).where(eq(gameNotices.gameId, game)).orderBy(gameNotices.id),
  } as ChallengeEditor;
  before(async () => {
    ctx = await createTestApp(engine);
    editor.app = ctx.app;
    ({ cookie: editor.cookie } = await asUser(ctx.app, 'Admin'));
    editor.api = client(ctx.app, editor.cookie);
    editor.gameId = (await createGame(editor.api)).id;
  });
  after(async () => ctx.close());
  return editor;
}
