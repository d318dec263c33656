import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEnv } from '../../../server/src/env';
import { gameTeamToken, generateGameKeys, revealPrivateKey, xorBytes } from '../../../server/src/lib/game-keys';
import { verifyTeamToken } from '../../../server/src/lib/team-token';

describe('game keys (reference §5.2)', () => {
  test('a key pair is two base64 strings of 32 bytes', () => {
    const keys = generateGameKeys(undefined);
    assert.equal(Buffer.from(keys.publicKey, 'base64').length, 32);
    assert.equal(Buffer.from(keys.privateKey, 'base64').length, 32);
  });

  test('XOR protection round-trips and hides the stored key', () => {
    const data = Buffer.from('0123456789abcdef0123456789abcdef');
    assert.deepEqual(xorBytes(xorBytes(data, 'k3y'), 'k3y'), data);
    assert.notDeepEqual(xorBytes(data, 'k3y'), data);
    assert.deepEqual(xorBytes(data, undefined), data);
    assert.deepEqual(xorBytes(data, ''), data);
  });

  test('a token signed with the XOR-protected key verifies with the public key', () => {
    const keys = generateGameKeys('correct horse');
    const token = gameTeamToken(keys.privateKey, 'correct horse', 42);
    assert.match(token, /^42:[A-Za-z0-9+/]{86}==$/, '"{teamId}:{base64 of a 64-byte signature}"');
    assert.equal(verifyTeamToken(token, keys.publicKey), 'valid');
    assert.equal(verifyTeamToken(token.replace(/^42:/, '43:'), keys.publicKey), 'invalid');
    assert.equal(verifyTeamToken(token, generateGameKeys(undefined).publicKey), 'invalid');
  });

  test('the stored private key is unusable without the right XOR key', () => {
    const keys = generateGameKeys('correct horse');
    assert.notEqual(revealPrivateKey(keys.privateKey, 'wrong'), revealPrivateKey(keys.privateKey, 'correct horse'));
    assert.equal(verifyTeamToken(gameTeamToken(keys.privateKey, 'wrong', 1), keys.publicKey), 'invalid');
    assert.equal(verifyTeamToken(gameTeamToken(keys.privateKey, undefined, 1), keys.publicKey), 'invalid');
  });

  test('without XOR_KEY the key is stored as plain base64', () => {
    const keys = generateGameKeys(undefined);
    assert.equal(revealPrivateKey(keys.privateKey, undefined), keys.privateKey);
    assert.equal(verifyTeamToken(gameTeamToken(keys.privateKey, undefined, 7), keys.publicKey), 'valid');
  });

  test('XOR_KEY comes from the environment, untrimmed; blank means unset', () => {
    assert.equal(loadEnv({ XOR_KEY: ' k3y ' }).xorKey, ' k3y ');
    assert.equal(loadEnv({ XOR_KEY: '  ' }).xorKey, undefined);
    assert.equal(loadEnv({}).xorKey, undefined);
  });
});
