import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { files, posts, users } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser, createUser } from '../helpers/users';

interface Call {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  multipart?: boolean;
}

/** Every admin-only operation of this module, with a request that would succeed for an admin. */
function adminCalls(targetId: string, postId: string, hash: string): Call[] {
  return [
    { operationId: 'adminGetConfigs', method: 'GET', url: '/api/admin/config' },
    { operationId: 'adminUpdateConfigs', method: 'PUT', url: '/api/admin/config', payload: {} },
    { operationId: 'adminUpdateLogo', method: 'POST', url: '/api/admin/config/logo', multipart: true },
    { operationId: 'adminResetLogo', method: 'DELETE', url: '/api/admin/config/logo' },
    { operationId: 'adminGetUsers', method: 'GET', url: '/api/admin/users' },
    { operationId: 'adminAddUsers', method: 'POST', url: '/api/admin/users', payload: [] },
    { operationId: 'adminSearchUsers', method: 'POST', url: '/api/admin/users/search?hint=a' },
    { operationId: 'adminUserInfo', method: 'GET', url: `/api/admin/users/${targetId}` },
    {
      operationId: 'adminUpdateUserInfo',
      method: 'PUT',
      url: `/api/admin/users/${targetId}`,
      payload: { role: 'Admin' },
    },
    { operationId: 'adminResetPassword', method: 'DELETE', url: `/api/admin/users/${targetId}/password` },
    { operationId: 'adminDeleteUser', method: 'DELETE', url: `/api/admin/users/${targetId}` },
    { operationId: 'adminFiles', method: 'GET', url: '/api/admin/files' },
    { operationId: 'adminLogs', method: 'GET', url: '/api/admin/logs' },
    { operationId: 'assetsUpload', method: 'POST', url: '/api/assets', multipart: true },
    { operationId: 'assetsDelete', method: 'DELETE', url: `/api/assets/${hash}` },
    {
      operationId: 'editAddPost',
      method: 'POST',
      url: '/api/edit/posts',
      payload: { title: 'sneaky', summary: '', content: '' },
    },
    {
      operationId: 'editUpdatePost',
      method: 'PUT',
      url: `/api/edit/posts/${postId}`,
      payload: { title: 'defaced', summary: '', content: '' },
    },
    { operationId: 'editDeletePost', method: 'DELETE', url: `/api/edit/posts/${postId}` },
  ];
}

for (const engine of engines()) {
  describe(`admin, assets and edit access (${engine.name})`, () => {
    let ctx: TestApp;
    let calls: Call[];
    let hash: string;
    let postId: string;
    const snapshot = async () => ({
      users: (await ctx.app.db.select().from(users)).map((user) => `${user.id}:${user.role}:${user.passwordHash}`),
      posts: (await ctx.app.db.select().from(posts)).map((post) => `${post.id}:${post.title}`),
      files: (await ctx.app.db.select().from(files)).map((file) => `${file.hash}:${file.referenceCount}`),
    });

    before(async () => {
      ctx = await createTestApp(engine);
      const admin = await asUser(ctx.app, 'Admin');
      const target = await createUser(ctx.app);
      const post = await ctx.app.inject({
        method: 'POST',
        url: '/api/edit/posts',
        payload: { title: 'public post', summary: 's', content: 'c' },
        headers: { cookie: admin.cookie },
      });
      postId = post.json();
      const upload = multipart([{ field: 'files', filename: 'public.txt', content: 'public bytes' }]);
      await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: upload.payload,
        headers: { ...upload.headers, cookie: admin.cookie },
      });
      hash = createHash('sha256').update('public bytes').digest('hex');
      calls = adminCalls(target.id, postId, hash);
    });
    after(async () => ctx.close());

    async function send(call: Call, cookie?: string) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      if (call.multipart) {
        const body = multipart([
          { field: call.operationId === 'assetsUpload' ? 'files' : 'file', filename: 'x.png', content: 'bytes' },
        ]);
        return ctx.app.inject({
          method: call.method,
          url: call.url,
          payload: body.payload,
          headers: { ...headers, ...body.headers },
        });
      }
      return ctx.app.inject({ method: call.method, url: call.url, payload: call.payload as object, headers });
    }

    for (const role of ['User', 'Monitor', 'Banned'] as const) {
      test(`a ${role} gets 403 on every admin operation and changes nothing`, async () => {
        const { cookie } = await asUser(ctx.app, role);
        const before = await snapshot();
        for (const call of calls) {
          const response = await send(call, cookie);
          assert.equal(response.statusCode, 403, `${call.operationId} as ${role}: ${response.body}`);
          assertMatchesContract(call.operationId, response.json(), 403);
        }
        const afterState = await snapshot();
        assert.deepEqual(afterState.posts, before.posts);
        assert.deepEqual(afterState.files, before.files);
        assert.deepEqual(afterState.users, before.users);
      });
    }

    test('signed out, every admin operation is 401', async () => {
      for (const call of calls) {
        const response = await send(call);
        assert.equal(response.statusCode, 401, `${call.operationId}: ${response.body}`);
        assertMatchesContract(call.operationId, response.json(), 401);
      }
    });

    test('posts and asset downloads are public', async () => {
      for (const url of ['/api/posts', '/api/posts/latest', `/api/posts/${postId}`]) {
        const response = await ctx.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
      }
      const file = await ctx.app.inject({ method: 'GET', url: `/assets/${hash}/public.txt` });
      assert.equal(file.statusCode, 200);
      assert.equal(file.body, 'public bytes');
      const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.webp' });
      assert.equal(icon.statusCode, 200);
    });
  });
}
