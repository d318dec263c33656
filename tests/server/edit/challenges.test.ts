import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { challenges, flags, gameInstances, solves, submissions } from '../../../server/src/db/schema';
import { MAX_ORIGINAL_SCORE } from '../../../server/src/modules/challenges/challenges.service';
import { NEW_CHALLENGE_DEFAULTS } from '../../helpers/challenge-defaults';
import { engines } from '../helpers/database';
import { challengeEditor, type Detail } from './challenge-editor';
import { assertError, assertOk, createChallenge, createGame, joinTeam } from './support';

const HOUR = 3_600_000;

// Attachments, flags and deleting are in challenge-files.test.ts.
for (const engine of engines()) {
  describe(`edit challenges (${engine.name})`, () => {
    const editor = challengeEditor(engine);
    const { url, detail, update, addFlags, notices } = editor;

    test('creates a disabled challenge with the entity defaults', async () => {
      const response = await editor.api('POST', url(), {
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
        category: 'Web',
        type: 'StaticAttachment',
        ...NEW_CHALLENGE_DEFAULTS,
        pidsLimit: 256,
      });
      assert.deepEqual(await detail(created.id), created);
      assertError(
        'editAddGameChallenge',
        await editor.api('POST', url(), { title: ' ', category: 'Web', type: 'StaticAttachment' }),
        400,
      );
      assertError(
        'editAddGameChallenge',
        await editor.api('POST', url(), { title: 'x', category: 'Nope', type: 'StaticAttachment' }),
        400,
      );
      assertError(
        'editAddGameChallenge',
        await editor.api('POST', '/api/edit/games/999999/challenges', {
          title: 'x',
          category: 'Web',
          type: 'StaticAttachment',
        }),
        404,
      );
    });

    test('lists challenges by id with the current and minimum score', async () => {
      const game = await createGame(editor.api);
      const first = await createChallenge(editor.api, game.id);
      const second = await createChallenge(editor.api, game.id, 'DynamicContainer');
      await editor.app.db.update(challenges).set({ acceptedCount: 10 }).where(eq(challenges.id, second.id));
      const list = assertOk(
        'editGetGameChallenges',
        await editor.api('GET', `/api/edit/games/${game.id}/challenges`),
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
      assertError('editGetGameChallenges', await editor.api('GET', '/api/edit/games/999999/challenges'), 404);
    });

    test('a challenge is found only under its own game', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
      const other = await createGame(editor.api);
      assertError(
        'editGetGameChallenge',
        await editor.api('GET', `/api/edit/games/${other.id}/challenges/${challenge.id}`),
        404,
      );
      assertError(
        'editUpdateGameChallenge',
        await editor.api('PUT', `/api/edit/games/${other.id}/challenges/${challenge.id}`, {}),
        404,
      );
      assertError(
        'editDeleteGameChallenge',
        await editor.api('DELETE', `/api/edit/games/${other.id}/challenges/${challenge.id}`),
        404,
      );
      assertError('editGetGameChallenge', await editor.api('GET', url(999999)), 404);
    });

    test('a partial update keeps what is null or missing', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId, 'StaticContainer');
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
      const challenge = await createChallenge(editor.api, editor.gameId);
      const container = await createChallenge(editor.api, editor.gameId, 'DynamicContainer');
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
      const container = await createChallenge(editor.api, editor.gameId, 'DynamicContainer');
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
      const attachment = await createChallenge(editor.api, editor.gameId);
      assertOk('editUpdateGameChallenge', await update(attachment.id, { flagTemplate: 'flag{hello}' }));
      // DynamicContainer flags are never loaded for the edit view.
      await editor.app.db.insert(flags).values({ challengeId: container.id, flag: 'flag{stray}' });
      assert.deepEqual((await detail(container.id)).flags, []);
    });

    test('traffic capture is for container types only', async () => {
      for (const type of ['StaticAttachment', 'DynamicAttachment']) {
        const challenge = await createChallenge(editor.api, editor.gameId, type);
        assertError('editUpdateGameChallenge', await update(challenge.id, { enableTrafficCapture: true }), 400);
        assertOk('editUpdateGameChallenge', await update(challenge.id, { enableTrafficCapture: false }));
      }
      for (const type of ['StaticContainer', 'DynamicContainer']) {
        const challenge = await createChallenge(editor.api, editor.gameId, type);
        const updated = assertOk(
          'editUpdateGameChallenge',
          await update(challenge.id, { enableTrafficCapture: true }),
        ) as Detail;
        assert.equal(updated.enableTrafficCapture, true);
      }
    });

    test('enabling needs a flag, links every participation and announces a new challenge while active', async () => {
      const team = await joinTeam(editor.app.db, editor.gameId, 'Accepted');
      const pending = await joinTeam(editor.app.db, editor.gameId, 'Pending');
      const challenge = await createChallenge(editor.api, editor.gameId);
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
      const instances = await editor.app.db
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
      const container = await createChallenge(editor.api, editor.gameId, 'DynamicContainer');
      assert.equal(
        (assertOk('editUpdateGameChallenge', await update(container.id, { isEnabled: true })) as Detail).isEnabled,
        true,
      );
    });

    test('new hints are announced only for an enabled challenge of a running game', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
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

      const future = await createGame(editor.api, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
      const later = await createChallenge(editor.api, future.id);
      await editor.api('POST', `/api/edit/games/${future.id}/challenges/${later.id}/flags`, [{ flag: 'f' }]);
      assertOk(
        'editUpdateGameChallenge',
        await editor.api('PUT', `/api/edit/games/${future.id}/challenges/${later.id}`, { isEnabled: true }),
      );
      assertOk(
        'editUpdateGameChallenge',
        await editor.api('PUT', `/api/edit/games/${future.id}/challenges/${later.id}`, { hints: ['h'] }),
      );
      assert.deepEqual(await notices(future.id), [], 'nothing is announced before the game starts');
    });

    test('updateaccepted recounts solves of Accepted participations before the end', async () => {
      const game = await createGame(editor.api);
      const challenge = await createChallenge(editor.api, game.id);
      const other = await createChallenge(editor.api, game.id);
      const solve = async (participation: { id: number; teamId: number }, challengeId: number, at: Date) => {
        await editor.app.db
          .insert(gameInstances)
          .values({ participationId: participation.id, challengeId })
          .onConflictDoNothing();
        const [submission] = await editor.app.db
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
        await editor.app.db
          .insert(solves)
          .values({ participationId: participation.id, challengeId, submissionId: submission!.id, solvedAt: at });
      };
      const now = new Date();
      const accepted = [
        await joinTeam(editor.app.db, game.id, 'Accepted'),
        await joinTeam(editor.app.db, game.id, 'Accepted'),
      ];
      const suspended = await joinTeam(editor.app.db, game.id, 'Suspended');
      for (const team of accepted) await solve(team.participation, challenge.id, now);
      await solve(suspended.participation, challenge.id, now);
      await solve(accepted[0]!.participation, other.id, new Date(now.getTime() + 2 * HOUR));
      await editor.app.db.update(challenges).set({ acceptedCount: 9 }).where(eq(challenges.gameId, game.id));

      const response = await editor.api('POST', `/api/edit/games/${game.id}/challenges/updateaccepted`);
      assert.equal(response.statusCode, 200, response.body);
      const counts = await editor.app.db
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
        await editor.api('POST', '/api/edit/games/999999/challenges/updateaccepted'),
        404,
      );
    });
  });
}
