import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  generateDynamicFlag,
  generateTestFlag,
  longestFlagLength,
  MAX_FLAG_LENGTH,
} from '../../../server/src/lib/flag-template';
import { engines } from '../helpers/database';
import { challengeEditor } from './challenge-editor';
import { assertError, assertOk, createChallenge } from './support';

const TEAM_HASH = 'abcdef012345';
const TEMPLATES = [
  '',
  'flag{[GUID]}',
  'flag{[GUID]_[GUID]_[GUID]}',
  'flag{[TEAM_HASH]}',
  '[LEET]flag{hello_[TEAM_HASH]_world}',
  '[CLEET]flag{[TEAM_HASH]sailing ships}',
  'flag{this is a rather long leet flag text}',
];

const dynamicTemplate = (length: number) => `flag{${'a'.repeat(length - 6)}}`;

for (const engine of engines()) {
  describe(`flag templates players can answer (${engine.name})`, () => {
    const editor = challengeEditor(engine);

    const dynamicChallenge = async () => (await createChallenge(editor.api, editor.gameId, 'DynamicContainer')).id;
    const setTemplate = (id: number, flagTemplate: string) => editor.update(id, { flagTemplate });
    const storedTemplate = async (id: number) => (await editor.detail(id)).flagTemplate;

    test('a template with surrounding whitespace is refused and nothing is stored', async () => {
      const id = await dynamicChallenge();
      assertOk('editUpdateGameChallenge', await setTemplate(id, 'flag{[GUID]}'));
      for (const template of [' flag{[GUID]}', 'flag{[GUID]} ', '\tflag{[GUID]}', 'flag{[GUID]}\n']) {
        const response = await setTemplate(id, template);
        assertError('editUpdateGameChallenge', response, 400);
        assert.match(response.json<{ title: string }>().title, /whitespace/, JSON.stringify(template));
      }
      assert.equal(await storedTemplate(id), 'flag{[GUID]}');
      // Inner spaces stay allowed, and a blank template still clears it.
      assertOk('editUpdateGameChallenge', await setTemplate(id, 'flag{[GUID] and [GUID]}'));
      assertOk('editUpdateGameChallenge', await setTemplate(id, '   '));
      assert.equal(await storedTemplate(id), null);
    });

    test('a template whose flags could be longer than an answer may be is refused', async () => {
      // The bound is exact: it is the length generated flags have.
      for (const template of TEMPLATES) {
        assert.equal(generateDynamicFlag(template, TEAM_HASH).length, longestFlagLength(template), template);
        if (template) assert.equal(generateTestFlag(template).length, longestFlagLength(template), template);
      }
      const id = await dynamicChallenge();
      // 26 characters, and each [GUID] becomes 36: 116.
      const three = 'flag{[GUID]_[GUID]_[GUID]}';
      assert.ok(longestFlagLength(three) <= MAX_FLAG_LENGTH);
      assertOk('editUpdateGameChallenge', await setTemplate(id, three));
      const four = 'flag{[GUID]_[GUID]_[GUID]_[GUID]}';
      const refused = await setTemplate(id, four);
      assertError('editUpdateGameChallenge', refused, 400);
      assert.match(refused.json<{ title: string }>().title, new RegExp(String(MAX_FLAG_LENGTH)));
      // One [GUID] in a 120-character template (the contract's limit) is already too long.
      const padded = `flag{[GUID]${'x'.repeat(120 - 'flag{[GUID]}'.length)}}`;
      assert.equal(padded.length, 120);
      assertError('editUpdateGameChallenge', await setTemplate(id, padded), 400);
      assert.equal(await storedTemplate(id), three);
      // A 120-character leet template keeps its length, and a generated flag fits the answer limit.
      const leet = dynamicTemplate(120);
      assertOk('editUpdateGameChallenge', await setTemplate(id, leet));
      assert.equal(await storedTemplate(id), leet);
      const accepted = generateDynamicFlag(three, TEAM_HASH);
      assert.ok(accepted.length <= MAX_FLAG_LENGTH && accepted === accepted.trim());
    });
  });
}
