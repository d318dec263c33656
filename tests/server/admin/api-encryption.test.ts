import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decryptApiData, encryptApiData, generateApiKeyPair } from '../../../server/src/lib/api-encryption';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser, createUser, uniqueName } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame, settle, statusOf, submit } from '../game/support';

describe('payload encryption primitives (reference §1.5)', () => {
  test('a value encrypted for the published key decrypts with the stored private key, with or without XOR_KEY', () => {
    for (const xorKey of [undefined, 'a-xor-key']) {
      const keys = generateApiKeyPair(xorKey);
      assert.equal(Buffer.from(keys.publicKey, 'base64').length, 32);
      const wire = encryptApiData('Pässw0rd flag{x}', keys.publicKey);
      assert.equal(decryptApiData(wire, keys.privateKey, xorKey), 'Pässw0rd flag{x}');
      // Each encryption uses a fresh ephemeral key and nonce.
      assert.notEqual(encryptApiData('same', keys.publicKey), encryptApiData('same', keys.publicKey));
    }
  });

  test('tampered, foreign, truncated or plain values do not decrypt', () => {
    const keys = generateApiKeyPair('k');
    const other = generateApiKeyPair('k');
    const wire = Buffer.from(encryptApiData('secret', keys.publicKey), 'base64');
    wire.writeUInt8(wire.readUInt8(wire.length - 1) ^ 1, wire.length - 1);
    assert.equal(decryptApiData(wire.toString('base64'), keys.privateKey, 'k'), null);
    assert.equal(decryptApiData(encryptApiData('secret', other.publicKey), keys.privateKey, 'k'), null);
    assert.equal(decryptApiData('c2hvcnQ=', keys.privateKey, 'k'), null);
    assert.equal(decryptApiData('Passw0rd', keys.privateKey, 'k'), null);
    assert.equal(decryptApiData(encryptApiData('secret', keys.publicKey), keys.privateKey, 'wrong-xor'), null);
  });
});

for (const engine of engines()) {
  describe(`payload encryption over HTTP (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: string;

    before(async () => {
      ctx = await createTestApp(engine, { env: testEnv({ XOR_KEY: 'test-xor-key' }) });
      ({ cookie: admin } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    const clientKey = async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/config' });
      return (response.json() as { apiPublicKey: string | null }).apiPublicKey;
    };
    const setEncryption = async (on: boolean) => {
      const current = await ctx.app.inject({ method: 'GET', url: '/api/admin/config', headers: { cookie: admin } });
      const body = current.json() as { globalConfig: Record<string, unknown> };
      const response = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/config',
        headers: { cookie: admin },
        payload: { globalConfig: { ...body.globalConfig, apiEncryption: on } },
      });
      assert.equal(response.statusCode, 200);
    };
    const login = (userName: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password } });

    test('switching it on publishes a key that stays the same; the admin config never shows the pair', async () => {
      assert.equal(await clientKey(), null);
      await setEncryption(true);
      const key = await clientKey();
      assert.ok(key);
      assert.equal(Buffer.from(key, 'base64').length, 32);
      const adminView = await ctx.app.inject({ method: 'GET', url: '/api/admin/config', headers: { cookie: admin } });
      assert.doesNotMatch(adminView.body, /apiPrivateKey|apiPublicKey/);
      await setEncryption(false);
      assert.equal(await clientKey(), null, 'off: clients send plain text');
      await setEncryption(true);
      assert.equal(await clientKey(), key, 'on again: the same key');
      await setEncryption(false);
    });

    test('with it on, encrypted passwords sign in and plain ones are refused as missing', async () => {
      const user = await createUser(ctx.app, { userName: uniqueName('enc') });
      await setEncryption(true);
      try {
        const key = (await clientKey())!;
        const plain = await login(user.userName, user.password);
        assert.equal(plain.statusCode, 400, 'a plain password does not decrypt');
        const encrypted = await login(user.userName, encryptApiData(user.password, key));
        assert.equal(encrypted.statusCode, 200);
        const wrong = await login(user.userName, encryptApiData('Wrong-Passw0rd', key));
        assert.equal(wrong.statusCode, 401);

        const name = uniqueName('encreg');
        const registered = await ctx.app.inject({
          method: 'POST',
          url: '/api/account/register',
          payload: { userName: name, email: `${name}@example.com`, password: encryptApiData('New-Passw0rd', key) },
        });
        assert.equal(registered.statusCode, 200);
        assert.equal((await login(name, encryptApiData('New-Passw0rd', key))).statusCode, 200);
      } finally {
        await setEncryption(false);
      }
      assert.equal((await login(user.userName, user.password)).statusCode, 200, 'off again: plain text works');
    });

    test('with it on, an encrypted flag is judged and a plain one is refused as missing', async () => {
      const adminClient = client(ctx.app, admin);
      const game = await newGame(adminClient);
      const challenge = await newChallenge(adminClient, game.id, { flags: ['flag{sealed}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await setEncryption(true);
      try {
        const key = (await clientKey())!;
        const plain = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, {
          flag: 'flag{sealed}',
        });
        assert.equal(plain.statusCode, 400);
        const id = await submit(player, game.id, challenge.id, encryptApiData('flag{sealed}', key));
        await settle(ctx.app);
        assert.equal(await statusOf(player, game.id, challenge.id, id), 'Accepted');
      } finally {
        await setEncryption(false);
      }
    });
  });
}
