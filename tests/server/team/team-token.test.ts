import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateTeamKeyPair, signTeamToken, verifyTeamToken } from '../../../server/src/lib/team-token';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { assertError, caller } from './support';

// Reference §5.2: "{teamId}:{base64 Ed25519 signature of 'GZCTF_TEAM_{teamId}'}".

describe('team tokens (lib/team-token)', () => {
  const keys = generateTeamKeyPair();

  test('keys are base64 of 32 raw bytes and tokens verify against their own key only', () => {
    assert.equal(Buffer.from(keys.publicKey, 'base64').length, 32);
    assert.equal(Buffer.from(keys.privateKey, 'base64').length, 32);
    const token = signTeamToken(keys.privateKey, 7);
    assert.match(token, /^7:[A-Za-z0-9+/]{86}==$/);
    assert.equal(verifyTeamToken(token, keys.publicKey), 'valid');
    assert.equal(verifyTeamToken(token, generateTeamKeyPair().publicKey), 'invalid');
    assert.equal(verifyTeamToken(token.replace(/^7:/, '8:'), keys.publicKey), 'invalid');
  });

  test('the private key is the 32-byte seed and signing is deterministic, as with GZCTF keys', () => {
    // RFC 8032 test vector 1: this seed belongs to this public key.
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    const publicKey = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
    const token = signTeamToken(seed.toString('base64'), 1);
    assert.equal(verifyTeamToken(token, publicKey.toString('base64')), 'valid');
    assert.equal(signTeamToken(seed.toString('base64'), 1), token);
    // Computed independently (pyca/cryptography, Ed25519 over 'GZCTF_TEAM_1' with this seed).
    assert.equal(token, '1:ZFPbA0la+ESeAuB88aAz77Aub4UdRSoYWNg+ia8NaVffX5dEJA8z6/672vulm+ittYNwyy7Dv3xmvNUCWfksBA==');
  });
});

for (const engine of engines()) {
  describe(`POST /api/team/verify (${engine.name})`, () => {
    let ctx: TestApp;
    let anonymous: ReturnType<typeof caller>;
    const keys = generateTeamKeyPair();
    before(async () => {
      ctx = await createTestApp(engine);
      anonymous = caller(ctx.app);
    });
    after(async () => ctx.close());

    const verify = (teamToken: unknown, publicKey: unknown, headers?: Record<string, string>) =>
      anonymous('POST', '/api/team/verify', { teamToken, publicKey }, headers);

    test('a valid token answers 200 with no body, signed in or not', async () => {
      const response = await verify(signTeamToken(keys.privateKey, 42), keys.publicKey);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
    });

    test('a signature that does not match answers 401', async () => {
      const token = signTeamToken(keys.privateKey, 42);
      const other = generateTeamKeyPair().publicKey;
      assertError('teamVerifySignature', await verify(token, other), 401, 'The signature is invalid');
      assertError('teamVerifySignature', await verify(token.replace(/^42:/, '43:'), keys.publicKey), 401);
      const flipped = Buffer.from(token.slice(3), 'base64');
      flipped[0] = flipped[0]! ^ 1;
      assertError('teamVerifySignature', await verify(`42:${flipped.toString('base64')}`, keys.publicKey), 401);
      const short = await verify(`42:${Buffer.alloc(10).toString('base64')}`, keys.publicKey);
      assertError('teamVerifySignature', short, 401);
      const korean = await verify(token, other, { 'accept-language': 'ko-KR' });
      assertError('teamVerifySignature', korean, 401, '서명이 유효하지 않습니다');
    });

    test('malformed tokens and keys answer 400', async () => {
      const token = signTeamToken(keys.privateKey, 42);
      const malformed = 'The team token or public key is malformed';
      assertError('teamVerifySignature', await verify('no-colon', keys.publicKey), 400, malformed);
      assertError('teamVerifySignature', await verify('42:not base64!', keys.publicKey), 400, malformed);
      assertError('teamVerifySignature', await verify(token, 'not a key'), 400, malformed);
      assertError('teamVerifySignature', await verify(token, Buffer.alloc(16).toString('base64')), 400, malformed);
      assertError('teamVerifySignature', await verify('', keys.publicKey), 400);
      assertError('teamVerifySignature', await verify(token, ''), 400);
      assertError('teamVerifySignature', await anonymous('POST', '/api/team/verify', { teamToken: token }), 400);
    });
  });
}
