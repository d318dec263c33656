import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { participations } from '../../../server/src/db/schema';
import { createTeam } from '../db/fixtures';
import { assertOk, client, uploadAsset } from '../edit/support';
import { join, newChallenge, newGame, submit } from '../game/support';
import { asUser } from '../helpers/users';
import type { Caller, SeedIds } from './arbitraries';

/**
 * The world the fuzzer plays in: an admin, a player captaining a team accepted in a running game
 * with a challenge, a flag, a notice and a submission, a post and an uploaded file. Fuzzed requests
 * aim at these ids so they get past the 404s into the handlers.
 */
export interface World {
  ids: SeedIds;
  cookies: Record<Caller, string | undefined>;
}

export async function seedWorld(app: FastifyInstance): Promise<World> {
  const admin = await asUser(app, 'Admin');
  const adminApi = client(app, admin.cookie);
  const player = await asUser(app, 'User');
  const team = await createTeam(app.db, player.user.id);
  const game = await newGame(adminApi);
  const challenge = await newChallenge(adminApi, game.id, { flags: ['flag{fuzz}'] });
  const detail = assertOk(
    'editGetGameChallenge',
    await adminApi('GET', `/api/edit/games/${game.id}/challenges/${challenge.id}`),
  ) as { flags: Array<{ id: number }> };
  const notice = assertOk(
    'editAddGameNotice',
    await adminApi('POST', `/api/edit/games/${game.id}/notices`, { content: 'fuzz notice' }),
  ) as { id: number };
  const post = assertOk('editAddPost', await adminApi('POST', '/api/edit/posts', { title: 'fuzz post' })) as string;
  const filename = 'fuzz.txt';
  const hash = await uploadAsset(app, admin.cookie, 'fuzz file', filename);

  const playerApi = client(app, player.cookie);
  const joined = await join({ user: player.user, cookie: player.cookie, team, api: playerApi }, game.id);
  if (joined.statusCode !== 200) throw new Error(`seed: join failed ${joined.statusCode} ${joined.body}`);
  const [participation] = await app.db
    .select({ id: participations.id })
    .from(participations)
    .where(and(eq(participations.gameId, game.id), eq(participations.teamId, team.id)));
  const submission = await submit(
    { user: player.user, cookie: player.cookie, team, api: playerApi },
    game.id,
    challenge.id,
    'flag{wrong}',
  );

  return {
    ids: {
      game: game.id,
      challenge: challenge.id,
      notice: notice.id,
      flag: detail.flags[0]!.id,
      submission,
      team: team.id,
      participation: participation!.id,
      post,
      hash,
      filename,
      users: [player.user.id, admin.user.id],
    },
    cookies: { anon: undefined, player: player.cookie, admin: admin.cookie },
  };
}

/**
 * Whether the world still stands after an operation ran against it: a fuzzed delete, sign-out, role
 * change or lock would otherwise turn every later operation into 401s and 404s.
 */
export async function worldIntact(app: FastifyInstance, world: World): Promise<boolean> {
  const { ids, cookies } = world;
  const admin = client(app, cookies.admin);
  const player = client(app, cookies.player);
  const checks = await Promise.all([
    admin('GET', '/api/account/profile').then(
      (response) => response.statusCode === 200 && response.json().role === 'Admin',
    ),
    player('GET', '/api/account/profile').then(
      (response) => response.statusCode === 200 && response.json().role === 'User',
    ),
    player('GET', `/api/game/${ids.game}/challenges/${ids.challenge}`).then((response) => response.statusCode === 200),
    player('GET', `/api/team/${ids.team}/invite`).then((response) => response.statusCode === 200),
    admin('GET', `/api/edit/games/${ids.game}/challenges/${ids.challenge}`).then(
      (response) =>
        response.statusCode === 200 &&
        (response.json() as { flags: Array<{ id: number }> }).flags.some((flag) => flag.id === ids.flag),
    ),
    admin('GET', `/api/edit/games/${ids.game}/notices`).then(
      (response) =>
        response.statusCode === 200 &&
        (response.json() as Array<{ id: number }>).some((notice) => notice.id === ids.notice),
    ),
    app.inject({ method: 'GET', url: `/api/posts/${ids.post}` }).then((response) => response.statusCode === 200),
    app
      .inject({ method: 'GET', url: `/assets/${ids.hash}/${ids.filename}` })
      .then((response) => response.statusCode === 200),
  ]);
  return checks.every(Boolean);
}
