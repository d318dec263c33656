import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { gameInstances } from '../../../server/src/db/schema';
import { assertOk, client, uploadAsset } from '../../server/edit/support';
import { acceptedPlayer, newChallenge, newGame, settle, submit, times } from '../../server/game/support';
import { createUser, signIn, uniqueName, type TestUser } from '../../server/helpers/users';
import { multipart } from '../../server/helpers/multipart';

/** What a page needs to show its real content: every list in the showcase game holds something. */
export interface Showcase {
  gameId: number;
  /** A challenge with a description, one without, and a container challenge (traffic capture on). */
  challengeIds: number[];
  postId: string;
  player: TestUser;
  monitor: TestUser;
}

const DESCRIBED = [
  'Find the flag hidden in the **login form**.',
  '',
  '- the source is attached',
  '- `curl` helps',
].join('\n');

/**
 * A running game as people see it mid-way: challenges with and without a description, four teams,
 * accepted, wrong and cheating submissions (so the monitor's events, submissions and cheat lists have
 * rows), a notice, a writeup, a post, an uploaded file, and a player and a monitor who can sign in.
 */
export async function seedShowcase(app: FastifyInstance, admin: { userName: string; password: string }) {
  const api = client(app, await signIn(app, admin.userName, admin.password));
  const game = await newGame(api, {
    title: `Showcase Cup ${uniqueName('g').slice(1, 6)}`,
    summary: 'A weekend of web, crypto and misc challenges.',
    content: '## Rules\n\nOne flag per challenge. Be nice.',
    writeupRequired: true,
    writeupDeadline: Date.now() + 2 * times.HOUR,
    writeupNote: 'A PDF of how you solved them.',
  });
  const described = await newChallenge(api, game.id, { flags: ['flag{showcase_one}'] });
  const bare = await newChallenge(api, game.id, { flags: ['flag{showcase_two}'] });
  const container = await newChallenge(api, game.id, { type: 'DynamicContainer', flagTemplate: 'flag{[TEAM_HASH]}' });
  const edits: Array<[number, Record<string, unknown>]> = [
    [described.id, { title: 'Login Maze', content: DESCRIBED, category: 'Web', hints: ['Look at the cookies'] }],
    [bare.id, { title: 'Bare Bones', content: '', category: 'Misc' }],
    [container.id, { title: 'Packet Party', content: 'Talk to the service.', enableTrafficCapture: true }],
  ];
  for (const [id, body] of edits) {
    assertOk('editUpdateGameChallenge', await api('PUT', `/api/edit/games/${game.id}/challenges/${id}`, body));
  }
  const notice = await api('POST', `/api/edit/games/${game.id}/notices`, {
    content: 'Hint for **Login Maze** is out.',
  });
  assert.equal(notice.statusCode, 200, notice.body);

  const [alice, bob, carol] = [
    await acceptedPlayer(app, game.id),
    await acceptedPlayer(app, game.id),
    await acceptedPlayer(app, game.id),
  ] as const;
  // The player the browser signs in as: one of the four teams.
  const player = carol.user;

  // Each team's own flag of the container challenge; Alice then hands in Bob's (a cheat record).
  for (const team of [alice, bob]) await team.api('GET', `/api/game/${game.id}/challenges/${container.id}`);
  const [aliceInstance, bobInstance] = await app.db
    .select()
    .from(gameInstances)
    .where(eq(gameInstances.challengeId, container.id))
    .orderBy(asc(gameInstances.id));
  assert.ok(aliceInstance?.flag && bobInstance?.flag, 'both teams have their container flag');
  await submit(alice, game.id, described.id, 'flag{showcase_one}');
  await submit(alice, game.id, bare.id, 'flag{not_this}');
  await submit(alice, game.id, container.id, bobInstance.flag);
  await submit(bob, game.id, described.id, 'flag{showcase_one}');
  await submit(bob, game.id, container.id, bobInstance.flag);
  await submit(carol, game.id, bare.id, 'flag{showcase_two}');
  await submit(carol, game.id, described.id, 'flag{close_but_no}');
  await settle(app);

  const writeup = multipart([
    { field: 'file', filename: 'w.pdf', content: '%PDF-1.4 writeup', contentType: 'application/pdf' },
  ]);
  const uploaded = await app.inject({
    method: 'POST',
    url: `/api/game/${game.id}/writeup`,
    payload: writeup.payload,
    headers: { ...writeup.headers, cookie: carol.cookie },
  });
  assert.equal(uploaded.statusCode, 200, uploaded.body);

  const postId = assertOk(
    'editAddPost',
    await api('POST', '/api/edit/posts', {
      title: 'Finals weekend',
      summary: 'When the finals run and the rules that matter.',
      content: '## Schedule\n\nFriday 18:00 to Sunday 18:00.',
      tags: ['schedule'],
      isPinned: true,
    }),
  ) as string;
  const adminCookie = await signIn(app, admin.userName, admin.password);
  await uploadAsset(app, adminCookie, 'a file the admin keeps', 'notes.txt');

  const monitor = await createUser(app, { userName: uniqueName('mon'), role: 'Monitor' });
  return {
    gameId: game.id,
    challengeIds: [described.id, bare.id, container.id],
    postId,
    player,
    monitor,
  } satisfies Showcase;
}
