import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { attachments, flags } from '../../../server/src/db/schema';
import { engines } from '../helpers/database';
import { challengeEditor } from './challenge-editor';
import { assertError, assertOk, createChallenge, referenceCount, uploadAsset } from './support';

// A challenge's attachment and flags, and what deleting them (or it) releases.
for (const engine of engines()) {
  describe(`edit challenge files and flags (${engine.name})`, () => {
    const editor = challengeEditor(engine);
    const { url, detail, update, addFlags } = editor;

    test('attachments: local by hash (referenced), remote http(s), replaced and released', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
      const hash = await uploadAsset(editor.app, editor.cookie, 'attachment bytes', 'dist.zip');
      const set = (body: Record<string, unknown>) => editor.api('POST', url(challenge.id, '/attachment'), body);
      const local = await set({ attachmentType: 'Local', fileHash: hash });
      assert.equal(local.statusCode, 200, local.body);
      assert.equal(local.body, '');
      let view = await detail(challenge.id);
      assert.equal(view.attachment?.type, 'Local');
      assert.equal(view.attachment?.url, `/assets/${hash}/dist.zip`);
      assert.equal(view.attachment?.fileSize, 'attachment bytes'.length);
      assert.equal(await referenceCount(editor.app.db, hash), 2, 'the upload and the attachment');
      const firstAttachment = view.attachment!.id;

      assert.equal((await set({ attachmentType: 'Remote', remoteUrl: 'https://example.com/a.zip' })).statusCode, 200);
      view = await detail(challenge.id);
      assert.deepEqual(view.attachment, {
        id: view.attachment!.id,
        type: 'Remote',
        url: 'https://example.com/a.zip',
        fileSize: null,
      });
      assert.equal(await referenceCount(editor.app.db, hash), 1, 'the replaced attachment let go of its file');
      assert.deepEqual(await editor.app.db.select().from(attachments).where(eq(attachments.id, firstAttachment)), []);

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

      const dynamic = await createChallenge(editor.api, editor.gameId, 'DynamicAttachment');
      assertError(
        'editUpdateAttachment',
        await editor.api('POST', url(dynamic.id, '/attachment'), { attachmentType: 'None' }),
        400,
      );
      assertError(
        'editUpdateAttachment',
        await editor.api('POST', url(999999, '/attachment'), { attachmentType: 'None' }),
        404,
      );
    });

    test('flags: static ones trimmed, validated all-or-nothing', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
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
      const hash = await uploadAsset(editor.app, editor.cookie, 'static flag file');
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
      assert.equal(await referenceCount(editor.app.db, hash), 1);
      assertError('editAddFlags', await addFlags(999999, [{ flag: 'x' }]), 404);
      const container = await createChallenge(editor.api, editor.gameId, 'DynamicContainer');
      assertError('editAddFlags', await addFlags(container.id, [{ flag: 'x' }]), 400);
    });

    test('dynamic attachment flags each carry an attachment; deleting releases it', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId, 'DynamicAttachment');
      const hashes = [
        await uploadAsset(editor.app, editor.cookie, 'team file 1', 'one.zip'),
        await uploadAsset(editor.app, editor.cookie, 'team file 2', 'two.zip'),
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
      assert.equal(await referenceCount(editor.app.db, hashes[0]!), 1, 'the failed batch took no reference');
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
      assert.equal(await referenceCount(editor.app.db, hashes[0]!), 2);

      const removed = await editor.api('DELETE', url(challenge.id, `/flags/${view.flags[0]!.id}`));
      assert.equal(assertOk('editRemoveFlag', removed), 'Success');
      assert.equal(await referenceCount(editor.app.db, hashes[0]!), 1);
      assert.deepEqual(
        await editor.app.db.select().from(attachments).where(eq(attachments.id, view.flags[0]!.attachment!.id)),
        [],
      );
      assert.equal(
        assertOk('editRemoveFlag', await editor.api('DELETE', url(challenge.id, `/flags/${view.flags[0]!.id}`))),
        'NotFound',
      );
      assert.equal(
        assertOk('editRemoveFlag', await editor.api('DELETE', url(challenge.id, '/flags/999999'))),
        'NotFound',
      );
      assertError('editRemoveFlag', await editor.api('DELETE', url(999999, '/flags/1')), 404);
    });

    test('removing the last flag disables the challenge', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
      await addFlags(challenge.id, [{ flag: 'a' }, { flag: 'b' }]);
      assertOk('editUpdateGameChallenge', await update(challenge.id, { isEnabled: true }));
      const [first, second] = (await detail(challenge.id)).flags;
      assert.equal(
        assertOk('editRemoveFlag', await editor.api('DELETE', url(challenge.id, `/flags/${first!.id}`))),
        'Success',
      );
      assert.equal((await detail(challenge.id)).isEnabled, true);
      assert.equal(
        assertOk('editRemoveFlag', await editor.api('DELETE', url(challenge.id, `/flags/${second!.id}`))),
        'Success',
      );
      assert.equal((await detail(challenge.id)).isEnabled, false);
    });

    test('deleting a challenge removes its flags and attachments and releases their files', async () => {
      const challenge = await createChallenge(editor.api, editor.gameId);
      const hash = await uploadAsset(editor.app, editor.cookie, 'to be deleted');
      await editor.api('POST', url(challenge.id, '/attachment'), { attachmentType: 'Local', fileHash: hash });
      await addFlags(challenge.id, [{ flag: 'x' }]);
      const attachmentId = (await detail(challenge.id)).attachment!.id;
      assert.equal(await referenceCount(editor.app.db, hash), 2);
      const response = await editor.api('DELETE', url(challenge.id));
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assertError('editGetGameChallenge', await editor.api('GET', url(challenge.id)), 404);
      assert.deepEqual(await editor.app.db.select().from(flags).where(eq(flags.challengeId, challenge.id)), []);
      assert.deepEqual(await editor.app.db.select().from(attachments).where(eq(attachments.id, attachmentId)), []);
      assert.equal(await referenceCount(editor.app.db, hash), 1);
      assertError('editDeleteGameChallenge', await editor.api('DELETE', url(challenge.id)), 404);
    });
  });
}
