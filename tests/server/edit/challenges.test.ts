import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import {
  attachments,
  challenges,
  flags,
  gameInstances,
  gameNotices,
  solves,
  submissions,
} from '../../../server/src/db/schema';
import { MAX_ORIGINAL_SCORE } from '../../../server/src/modules/challenges/challenges.service';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  assertError,
  assertOk,
  client,
  createChallenge,
  createGame,
  joinTeam,
  referenceCount,
  uploadAsset,
  type Client,
} from './support';

const HOUR = 3_600_000;

interface Detail {
  id: number;
  isEnabled: boolean;
  flags: Array<{ id: number; flag: string; attachment: { id: number; type: string; url: string | null } | null }>;
  attachment: { id: number; type: string; url: string | null; fileSize: number | null } | null;
  [key: string]: unknown;
}

for (const engine of engines()) {
  describe(`edit challenges (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;
    let cookie: string;
    let gameId: number;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      api = client(ctx.app, cookie);
      gameId = (await createGame(api)).id;
    });
    after(async () => ctx.close());

    const url = (challengeId?: number, rest = '') =>
      `/api/edit/games/${gameId}/challenges${challengeId === undefined ? '' : `/${challengeId}`}${rest}`;
    const detail = async (challengeId: number, game = gameId) =>
      assertOk('editGetGameChallenge', await api('GET', `/api/edit/games/${game}/challenges/${challengeId}`)) as Detail;
    const update = (challengeId: number, body: Record<string, unknown>) => api('PUT', url(challengeId), body);
    const addFlags = (challengeId: number, body: unknown[]) => api('POST', url(challengeId, '/flags'), body);
    const notices = async (game = gameId) =>
      ctx.app.db.select().from(gameNotices).where(eq(gameNotices.gameId, game)).orderBy(gameNotices.id);

    test('creates a disabled challenge with the entity defaults', async () => {
      const response = await api('POST', url(), {
        title: 'Baby web',
        category: 'Web',
        type: 'StaticAttachment',
        isEnabled: true,
        originalScore: 5,
      });
      const created = assertOk('editAddGameChallenge', response) as Detail;
      assert.deepEqual(created, {
        id: created.id,
        title: 'Baby web',
        content: '',
        category: 'Web',
        type: 'StaticAttachment',
        hints: [],
        flagTemplate: null,
        isEnabled: false,
        acceptedCount: 0,
        fileName: 'attachment',
        attachment: null,
        testContainer: null,
        flags: [],
        containerImage: '',
        memoryLimit: 64,
        cpuCount: 1,
        storageLimit: 256,
        pidsLimit: 256,
        containerExposePort: 80,
        enableTrafficCapture: false,
        disableBloodBonus: false,
        originalScore: 1000,
        minScoreRate: 0.25,
        difficulty: 5,
      });
      assert.deepEqual(await detail(created.id), created);
      assertError(
        'editAddGameChallenge',
        await api('POST', url(), { title: ' ', category: 'Web', type: 'StaticAttachment' }),
        400,
      );
      assertError(
        'editAddGameChallenge',
        await api('POST', url(), { title: 'x', category: 'Nope', type: 'StaticAttachment' }),
        400,
      );
      assertError(
        'editAddGameChallenge',
        await api('POST', '/api/edit/games/999999/challenges', {
          title: 'x',
          category: 'Web',
          type: 'StaticAttachment',
        }),
        404,
      );
    });

    test('lists challenges by id with the current and minimum score', async () => {
      const game = await createGame(api);
      const first = await createChallenge(api, game.id);
      const second = await createChallenge(api, game.id, 'DynamicContainer');
      await ctx.app.db.update(challenges).set({ acceptedCount: 10 }).where(eq(challenges.id, second.id));
      const list = assertOk(
        'editGetGameChallenges',
        await api('GET', `/api/edit/games/${game.id}/challenges`),
      ) as Array<Record<string, unknown>>;
      assert.deepEqual(list, [
        {
          id: first.id,
          title: first.title,
          category: 'Web',
          type: 'StaticAttachment',
          isEnabled: false,
          score: 1000,
          minScore: 250,
          originalScore: 1000,
        },
        {
          id: second.id,
          title: second.title,
          category: 'Web',
          type: 'DynamicContainer',
          isEnabled: false,
          score: 373,
          minScore: 250,
          originalScore: 1000,
        },
      ]);
      assertError('editGetGameChallenges', await api('GET', '/api/edit/games/999999/challenges'), 404);
    });

    test('a challenge is found only under its own game', async () => {
      const challenge = await createChallenge(api, gameId);
      const other = await createGame(api);
      assertError(
        'editGetGameChallenge',
        await api('GET', `/api/edit/games/${other.id}/challenges/${challenge.id}`),
        404,
      );
      assertError(
        'editUpdateGameChallenge',
        await api('PUT', `/api/edit/games/${other.id}/challenges/${challenge.id}`, {}),
        404,
      );
      assertError(
        'editDeleteGameChallenge',
        await api('DELETE', `/api/edit/games/${other.id}/challenges/${challenge.id}`),
        404,
      );
      assertError('editGetGameChallenge', await api('GET', url(999999)), 404);
    });

    test('a partial update keeps what is null or missing', async () => {
      const challenge = await createChallenge(api, gameId, 'StaticContainer');
      const updated = assertOk(
        'editUpdateGameChallenge',
        await update(challenge.id, {
          content: '## Hello <b>there</b>',
          hints: ['one', 'two'],
          containerImage: '  nginx:latest ',
          memoryLimit: 128,
          cpuCount: 10,
          storageLimit: 512,
          containerExposePort: 8080,
          enableTrafficCapture: true,
          disableBloodBonus: true,
          originalScore: 500,
          minScoreRate: 0.5,
          difficulty: 2.5,
          fileName: 'dist.zip',
          category: 'Pwn',
        }),
      ) as Detail;
      assert.equal(updated.title, challenge.title);
      assert.equal(updated.containerImage, 'nginx:latest');
      assert.equal(updated.category, 'Pwn');
      const kept = assertOk(
        'editUpdateGameChallenge',
        await update(challenge.id, { title: null, content: null, hints: null, memoryLimit: null }),
      ) as Detail;
      assert.deepEqual(kept, updated);
    });

    test('out-of-range and invalid updates are refused with 400 and change nothing', async () => {
      const challenge = await createChallenge(api, gameId);
      const container = await createChallenge(api, gameId, 'DynamicContainer');
      const beforeStatic = await detail(challenge.id);
      const beforeContainer = await detail(container.id);
      const invalid: Array<[number, Record<string, unknown>]> = [
        [challenge.id, { title: '  ' }],
        [challenge.id, { memoryLimit: 31 }],
        [challenge.id, { memoryLimit: 1048577 }],
        [challenge.id, { cpuCount: 0 }],
        [challenge.id, { cpuCount: 1025 }],
        [challenge.id, { storageLimit: 127 }],
        [challenge.id, { originalScore: 0 }],
        [challenge.id, { originalScore: -5 }],
        [challenge.id, { originalScore: MAX_ORIGINAL_SCORE + 1 }],
        [challenge.id, { minScoreRate: 1.5 }],
        [challenge.id, { minScoreRate: -0.1 }],
        [challenge.id, { difficulty: 0 }],
        [challenge.id, { difficulty: -1 }],
        [challenge.id, { containerExposePort: 0 }],
        [challenge.id, { containerExposePort: 70000 }],
        [challenge.id, { fileName: '   ' }],
        [challenge.id, { fileName: '../etc/passwd' }],
        [challenge.id, { enableTrafficCapture: true }],
        [challenge.id, { isEnabled: true }],
        [challenge.id, { title: 'ok', content: 'a\u0000' }],
        [challenge.id, { flagTemplate: 'x'.repeat(121) }],
        [container.id, { flagTemplate: 'flag{hello}' }],
        [container.id, { flagTemplate: 'flag{abcdefgh}', title: 'Changed too' }],
        [container.id, { category: 'Nope' }],
      ];
      for (const [id, body] of invalid) {
        const response = await update(id, body);
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
        assertError('editUpdateGameChallenge', response, 400);
      }
      assert.deepEqual(await detail(challenge.id), beforeStatic);
      assert.deepEqual(await detail(container.id), beforeContainer);
    });

    test('flag templates of DynamicContainer: placeholders or enough leet; "" clears', async () => {
      const container = await createChallenge(api, gameId, 'DynamicContainer');
      for (const template of [
        'flag{[GUID]}',
        'flag{[TEAM_HASH]}',
        '[LEET]flag{hi_[TEAM_HASH]}',
        'flag{this_is_a_rather_long_leet_flag_text}',
      ]) {
        const updated = assertOk(
          'editUpdateGameChallenge',
          await update(container.id, { flagTemplate: template }),
        ) as Detail;
        assert.equal(updated.flagTemplate, template);
      }
      const cleared = assertOk('editUpdateGameChallenge', await update(container.id, { flagTemplate: '' })) as Detail;
      assert.equal(cleared.flagTemplate, null);
      // Other types may keep any template: it is only used by DynamicContainer.
      const attachment = await createChallenge(api, gameId);
      assertOk('editUpdateGameChallenge', await update(attachment.id, { flagTemplate: 'flag{hello}' }));
      // DynamicContainer flags are never loaded for the edit view.
      await ctx.app.db.insert(flags).values({ challengeId: container.id, flag: 'flag{stray}' });
      assert.deepEqual((await detail(container.id)).flags, []);
    });

    test('traffic capture is for container types only', async () => {
      for (const type of ['StaticAttachment', 'DynamicAttachment']) {
        const challenge = await createChallenge(api, gameId, type);
        assertError('editUpdateGameChallenge', await update(challenge.id, { enableTrafficCapture: true }), 400);
        assertOk('editUpdateGameChallenge', await update(challenge.id, { enableTrafficCapture: false }));
      }
      for (const type of ['StaticContainer', 'DynamicContainer']) {
        const challenge = await createChallenge(api, gameId, type);
        const updated = assertOk(
          'editUpdateGameChallenge',
          await update(challenge.id, { enableTrafficCapture: true }),
        ) as Detail;
        assert.equal(updated.enableTrafficCapture, true);
      }
    });

    test('enabling needs a flag, links every participation and announces a new challenge while active', async () => {
      const team = await joinTeam(ctx.app.db, gameId, 'Accepted');
      const pending = await joinTeam(ctx.app.db, gameId, 'Pending');
      const challenge = await createChallenge(api, gameId);
      assertError('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true }), 400);
      assert.equal((await detail(challenge.id)).isEnabled, false);

      assert.equal((await addFlags(challenge.id, [{ flag: 'flag{one}' }])).statusCode, 200);
      const before = (await notices()).length;
      const enabled = assertOk('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true })) as Detail;
      assert.equal(enabled.isEnabled, true);
      const posted = (await notices()).slice(before);
      assert.deepEqual(
        posted.map((notice) => [notice.type, notice.values]),
        [['NewChallenge', [challenge.title]]],
      );
      const instances = await ctx.app.db
        .select()
        .from(gameInstances)
        .where(eq(gameInstances.challengeId, challenge.id));
      assert.deepEqual(
        instances.map((instance) => instance.participationId).sort(),
        [team.participation.id, pending.participation.id].sort(),
      );
      // Enabling again is no transition: no second notice.
      assertOk('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true }));
      assert.equal((await notices()).length, before + 1);

      // DynamicContainer challenges need no flags.
      const container = await createChallenge(api, gameId, 'DynamicContainer');
      assert.equal(
        (assertOk('editUpdateGameChallenge', await update(container.id, { isEnabled: true })) as Detail).isEnabled,
        true,
      );
    });

    test('new hints are announced only for an enabled challenge of a running game', async () => {
      const challenge = await createChallenge(api, gameId);
      await addFlags(challenge.id, [{ flag: 'flag{x}' }]);
      assertOk('editUpdateGameChallenge', await update(challenge.id, { hints: ['a'] }));
      assertOk('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true }));
      let count = (await notices()).length;
      assertOk('editUpdateGameChallenge', await update(challenge.id, { hints: ['a', 'b'] }));
      const [hint] = (await notices()).slice(count);
      assert.equal(hint?.type, 'NewHint');
      assert.deepEqual(hint?.values, [challenge.title]);
      count += 1;
      assertOk('editUpdateGameChallenge', await update(challenge.id, { hints: ['b', 'a'] }));
      assert.equal((await notices()).length, count, 'the same set in another order is no change');

      const future = await createGame(api, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
      const later = await createChallenge(api, future.id);
      await api('POST', `/api/edit/games/${future.id}/challenges/${later.id}/flags`, [{ flag: 'f' }]);
      assertOk(
        'editUpdateGameChallenge',
        await api('PUT', `/api/edit/games/${future.id}/challenges/${later.id}`, { isEnabled: true }),
      );
      assertOk(
        'editUpdateGameChallenge',
        await api('PUT', `/api/edit/games/${future.id}/challenges/${later.id}`, { hints: ['h'] }),
      );
      assert.deepEqual(await notices(future.id), [], 'nothing is announced before the game starts');
    });

    test('attachments: local by hash (referenced), remote http(s), replaced and released', async () => {
      const challenge = await createChallenge(api, gameId);
      const hash = await uploadAsset(ctx.app, cookie, 'attachment bytes', 'dist.zip');
      const set = (body: Record<string, unknown>) => api('POST', url(challenge.id, '/attachment'), body);
      const local = await set({ attachmentType: 'Local', fileHash: hash });
      assert.equal(local.statusCode, 200, local.body);
      assert.equal(local.body, '');
      let view = await detail(challenge.id);
      assert.equal(view.attachment?.type, 'Local');
      assert.equal(view.attachment?.url, `/assets/${hash}/dist.zip`);
      assert.equal(view.attachment?.fileSize, 'attachment bytes'.length);
      assert.equal(await referenceCount(ctx.app.db, hash), 2, 'the upload and the attachment');
      const firstAttachment = view.attachment!.id;

      assert.equal((await set({ attachmentType: 'Remote', remoteUrl: 'https://example.com/a.zip' })).statusCode, 200);
      view = await detail(challenge.id);
      assert.deepEqual(view.attachment, {
        id: view.attachment!.id,
        type: 'Remote',
        url: 'https://example.com/a.zip',
        fileSize: null,
      });
      assert.equal(await referenceCount(ctx.app.db, hash), 1, 'the replaced attachment let go of its file');
      assert.deepEqual(await ctx.app.db.select().from(attachments).where(eq(attachments.id, firstAttachment)), []);

      const before = await detail(challenge.id);
      for (const body of [
        { attachmentType: 'Remote', remoteUrl: 'javascript:alert(1)' },
        { attachmentType: 'Remote', remoteUrl: 'ftp://example.com/a' },
        { attachmentType: 'Remote', remoteUrl: 'not a url' },
        { attachmentType: 'Remote' },
        { attachmentType: 'Local', fileHash: 'a'.repeat(64) },
        { attachmentType: 'Local', fileHash: 'xyz' },
        { attachmentType: 'Local' },
        { attachmentType: 'Other' },
      ]) {
        const response = await set(body);
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
        assertError('editUpdateAttachment', response, 400);
      }
      assert.deepEqual(await detail(challenge.id), before);

      assert.equal((await set({ attachmentType: 'None' })).statusCode, 200);
      assert.equal((await detail(challenge.id)).attachment, null);

      const dynamic = await createChallenge(api, gameId, 'DynamicAttachment');
      assertError(
        'editUpdateAttachment',
        await api('POST', url(dynamic.id, '/attachment'), { attachmentType: 'None' }),
        400,
      );
      assertError(
        'editUpdateAttachment',
        await api('POST', url(999999, '/attachment'), { attachmentType: 'None' }),
        404,
      );
    });

    test('flags: static ones trimmed, validated all-or-nothing', async () => {
      const challenge = await createChallenge(api, gameId);
      const ok = await addFlags(challenge.id, [{ flag: ' flag{a} ' }, { flag: 'flag{b}', attachmentType: 'None' }]);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.body, '');
      assert.deepEqual(
        (await detail(challenge.id)).flags.map((flag) => [flag.flag, flag.attachment]),
        [
          ['flag{a}', null],
          ['flag{b}', null],
        ],
      );
      const hash = await uploadAsset(ctx.app, cookie, 'static flag file');
      for (const body of [
        [{ flag: 'x'.repeat(128) }],
        [{ flag: '' }],
        [{ flag: '   ' }],
        [{ flag: 'flag{c}' }, { flag: 'a\u0000' }],
        [{ flag: 'flag{c}' }, { flag: 'flag{d}', attachmentType: 'Local', fileHash: hash }],
        [{ attachmentType: 'None' }],
      ]) {
        const response = await addFlags(challenge.id, body);
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
        assertError('editAddFlags', response, 400);
      }
      assert.equal((await detail(challenge.id)).flags.length, 2);
      assert.equal(await referenceCount(ctx.app.db, hash), 1);
      assertError('editAddFlags', await addFlags(999999, [{ flag: 'x' }]), 404);
      const container = await createChallenge(api, gameId, 'DynamicContainer');
      assertError('editAddFlags', await addFlags(container.id, [{ flag: 'x' }]), 400);
    });

    test('dynamic attachment flags each carry an attachment; deleting releases it', async () => {
      const challenge = await createChallenge(api, gameId, 'DynamicAttachment');
      const hashes = [
        await uploadAsset(ctx.app, cookie, 'team file 1', 'one.zip'),
        await uploadAsset(ctx.app, cookie, 'team file 2', 'two.zip'),
      ];
      assertError('editAddFlags', await addFlags(challenge.id, [{ flag: 'flag{1}' }]), 400);
      assertError(
        'editAddFlags',
        await addFlags(challenge.id, [
          { flag: 'flag{1}', attachmentType: 'Local', fileHash: hashes[0] },
          { flag: 'flag{2}', attachmentType: 'Local', fileHash: 'b'.repeat(64) },
        ]),
        400,
      );
      assert.equal(await referenceCount(ctx.app.db, hashes[0]!), 1, 'the failed batch took no reference');
      const added = await addFlags(challenge.id, [
        { flag: 'flag{1}', attachmentType: 'Local', fileHash: hashes[0] },
        { flag: 'flag{2}', attachmentType: 'Local', fileHash: hashes[1] },
        { flag: 'flag{3}', attachmentType: 'Remote', remoteUrl: 'http://files.example/3.zip' },
      ]);
      assert.equal(added.statusCode, 200, added.body);
      const view = await detail(challenge.id);
      assert.deepEqual(
        view.flags.map((flag) => [flag.flag, flag.attachment?.type, flag.attachment?.url]),
        [
          ['flag{1}', 'Local', `/assets/${hashes[0]}/one.zip`],
          ['flag{2}', 'Local', `/assets/${hashes[1]}/two.zip`],
          ['flag{3}', 'Remote', 'http://files.example/3.zip'],
        ],
      );
      assert.equal(await referenceCount(ctx.app.db, hashes[0]!), 2);

      const removed = await api('DELETE', url(challenge.id, `/flags/${view.flags[0]!.id}`));
      assert.equal(assertOk('editRemoveFlag', removed), 'Success');
      assert.equal(await referenceCount(ctx.app.db, hashes[0]!), 1);
      assert.deepEqual(
        await ctx.app.db.select().from(attachments).where(eq(attachments.id, view.flags[0]!.attachment!.id)),
        [],
      );
      assert.equal(
        assertOk('editRemoveFlag', await api('DELETE', url(challenge.id, `/flags/${view.flags[0]!.id}`))),
        'NotFound',
      );
      assert.equal(assertOk('editRemoveFlag', await api('DELETE', url(challenge.id, '/flags/999999'))), 'NotFound');
      assertError('editRemoveFlag', await api('DELETE', url(999999, '/flags/1')), 404);
    });

    test('removing the last flag disables the challenge', async () => {
      const challenge = await createChallenge(api, gameId);
      await addFlags(challenge.id, [{ flag: 'a' }, { flag: 'b' }]);
      assertOk('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true }));
      const [first, second] = (await detail(challenge.id)).flags;
      assert.equal(
        assertOk('editRemoveFlag', await api('DELETE', url(challenge.id, `/flags/${first!.id}`))),
        'Success',
      );
      assert.equal((await detail(challenge.id)).isEnabled, true);
      assert.equal(
        assertOk('editRemoveFlag', await api('DELETE', url(challenge.id, `/flags/${second!.id}`))),
        'Success',
      );
      assert.equal((await detail(challenge.id)).isEnabled, false);
    });

    test('deleting a challenge removes its flags and attachments and releases their files', async () => {
      const challenge = await createChallenge(api, gameId);
      const hash = await uploadAsset(ctx.app, cookie, 'to be deleted');
      await api('POST', url(challenge.id, '/attachment'), { attachmentType: 'Local', fileHash: hash });
      await addFlags(challenge.id, [{ flag: 'x' }]);
      const attachmentId = (await detail(challenge.id)).attachment!.id;
      assert.equal(await referenceCount(ctx.app.db, hash), 2);
      const response = await api('DELETE', url(challenge.id));
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assertError('editGetGameChallenge', await api('GET', url(challenge.id)), 404);
      assert.deepEqual(await ctx.app.db.select().from(flags).where(eq(flags.challengeId, challenge.id)), []);
      assert.deepEqual(await ctx.app.db.select().from(attachments).where(eq(attachments.id, attachmentId)), []);
      assert.equal(await referenceCount(ctx.app.db, hash), 1);
      assertError('editDeleteGameChallenge', await api('DELETE', url(challenge.id)), 404);
    });

    test('updateaccepted recounts solves of Accepted participations before the end', async () => {
      const game = await createGame(api);
      const challenge = await createChallenge(api, game.id);
      const other = await createChallenge(api, game.id);
      const solve = async (participation: { id: number; teamId: number }, challengeId: number, at: Date) => {
        await ctx.app.db
          .insert(gameInstances)
          .values({ participationId: participation.id, challengeId, isSolved: true })
          .onConflictDoNothing();
        const [submission] = await ctx.app.db
          .insert(submissions)
          .values({
            answer: 'flag',
            status: 'Accepted',
            teamId: participation.teamId,
            participationId: participation.id,
            gameId: game.id,
            challengeId,
            submittedAt: at,
          })
          .returning();
        await ctx.app.db
          .insert(solves)
          .values({ participationId: participation.id, challengeId, submissionId: submission!.id, solvedAt: at });
      };
      const now = new Date();
      const accepted = [
        await joinTeam(ctx.app.db, game.id, 'Accepted'),
        await joinTeam(ctx.app.db, game.id, 'Accepted'),
      ];
      const suspended = await joinTeam(ctx.app.db, game.id, 'Suspended');
      for (const team of accepted) await solve(team.participation, challenge.id, now);
      await solve(suspended.participation, challenge.id, now);
      await solve(accepted[0]!.participation, other.id, new Date(now.getTime() + 2 * HOUR));
      await ctx.app.db.update(challenges).set({ acceptedCount: 9 }).where(eq(challenges.gameId, game.id));

      const response = await api('POST', `/api/edit/games/${game.id}/challenges/updateaccepted`);
      assert.equal(response.statusCode, 200, response.body);
      const counts = await ctx.app.db
        .select({ id: challenges.id, acceptedCount: challenges.acceptedCount })
        .from(challenges)
        .where(and(eq(challenges.gameId, game.id)))
        .orderBy(challenges.id);
      assert.deepEqual(counts, [
        { id: challenge.id, acceptedCount: 2 },
        { id: other.id, acceptedCount: 0 },
      ]);
      assertError(
        'editUpdateGameChallengesAcceptedCount',
        await api('POST', '/api/edit/games/999999/challenges/updateaccepted'),
        404,
      );
    });
  });
}
