import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { sessions, users } from '../../../server/src/db/schema';
import { hashToken } from '../../../server/src/lib/tokens';
import { setUserRole } from '../../../server/src/modules/accounts/account.repository';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { multipart } from '../helpers/multipart';
import { asUser, createUser, signIn } from '../helpers/users';
import { cookieFrom, userRow } from './support';

const DAY = 24 * 60 * 60 * 1000;

for (const engine of engines()) {
  describe(`sessions and roles (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const profile = (cookie?: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { ...headers, ...(cookie ? { cookie } : {}) },
      });

    test('sign-in sets an HTTP-only, SameSite=Lax, 7-day GZCTF_Token whose hash (not value) is stored', async () => {
      const user = await createUser(ctx.app);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName: user.userName, password: user.password },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      const cookie = response.cookies.find((item) => item.name === 'GZCTF_Token');
      assert.ok(cookie);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Lax');
      assert.equal(cookie.path, '/');
      assert.equal(cookie.maxAge, 7 * 24 * 60 * 60);
      assert.equal(cookie.secure, undefined, 'plain HTTP without COOKIE_SECURE: no Secure flag');
      assert.ok(cookie.value.length >= 43, 'at least 256 random bits');

      const rows = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.id, hashToken(cookie.value));
      assert.notEqual(rows[0]!.id, cookie.value);
      const expiresIn = rows[0]!.expiresAt.getTime() - Date.now();
      assert.ok(expiresIn > 7 * DAY - 60_000 && expiresIn <= 7 * DAY);
    });

    test('the signed-in user reaches User operations; signed out gets a localised 401', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const ok = await profile(cookie);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().userId, user.id);

      const anonymous = await profile();
      assert.equal(anonymous.statusCode, 401);
      assert.deepEqual(anonymous.json(), { title: 'Please sign in first', status: 401 });
      assertMatchesContract('accountProfile', anonymous.json(), 401);

      const chinese = await profile(undefined, { 'accept-language': 'zh-CN' });
      assert.deepEqual(chinese.json(), { title: '请先登录', status: 401 });
    });

    test('an unknown or forged cookie is anonymous and gets cleared', async () => {
      const response = await profile('GZCTF_Token=not-a-real-session');
      assert.equal(response.statusCode, 401);
      const cleared = response.cookies.find((item) => item.name === 'GZCTF_Token');
      assert.ok(cleared);
      assert.equal(cleared.value, '');
    });

    test('a Banned user gets 403 on User operations but may still use anonymous ones', async () => {
      const { cookie } = await asUser(ctx.app, 'Banned');
      const response = await profile(cookie);
      assert.equal(response.statusCode, 403);
      assertMatchesContract('accountProfile', response.json(), 403);
      assert.equal(response.json().title, 'You do not have permission to do this');
      const update = await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/update',
        headers: { cookie },
        payload: { bio: 'still here' },
      });
      assert.equal(update.statusCode, 403);
      const config = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: { cookie } });
      assert.equal(config.statusCode, 200);
    });

    test('roles below the operation level get 403 before the handler runs', async () => {
      const { cookie: userCookie } = await asUser(ctx.app, 'User');
      const { cookie: monitorCookie } = await asUser(ctx.app, 'Monitor');
      const { cookie: adminCookie } = await asUser(ctx.app, 'Admin');

      for (const cookie of [userCookie, monitorCookie]) {
        const response = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
        assert.equal(response.statusCode, 403);
        assertMatchesContract('adminGetUsers', response.json(), 403);
      }
      const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/admin/users' });
      assert.equal(anonymous.statusCode, 401);
      const admin = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: adminCookie } });
      assert.ok(![401, 403].includes(admin.statusCode), `an admin passes the guard (got ${admin.statusCode})`);
    });

    test('the role guard answers before the body is validated', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        payload: { token: 42 },
      });
      assert.equal(response.statusCode, 401);
    });

    test('a role change applies to the next request of an existing session', async () => {
      const { user, cookie } = await asUser(ctx.app, 'User');
      // Served once, so the session lookup is cached: the change must drop it.
      assert.equal((await profile(cookie)).statusCode, 200);
      await setUserRole(ctx.app.db, user.id, 'Banned');
      assert.equal((await profile(cookie)).statusCode, 403);
      await setUserRole(ctx.app.db, user.id, 'User');
      assert.equal((await profile(cookie)).statusCode, 200);
    });

    test('an expired session is refused; a deleted user loses the session', async () => {
      const { user, cookie } = await asUser(ctx.app);
      await ctx.app.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, user.id));
      assert.equal((await profile(cookie)).statusCode, 401);
      assert.equal(
        (await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).length,
        0,
        'the expired row is removed when met',
      );

      const other = await asUser(ctx.app);
      await ctx.app.db.delete(users).where(eq(users.id, other.user.id));
      assert.equal((await profile(other.cookie)).statusCode, 401);
      assert.equal((await ctx.app.db.select().from(sessions).where(eq(sessions.userId, other.user.id))).length, 0);
    });

    test('expiry slides: an active session is pushed to 7 days again and the cookie re-sent', async () => {
      const { user, cookie } = await asUser(ctx.app);
      await ctx.app.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + DAY) })
        .where(eq(sessions.userId, user.id));
      const response = await profile(cookie);
      assert.equal(response.statusCode, 200);
      const [row] = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
      assert.ok(row!.expiresAt.getTime() - Date.now() > 7 * DAY - 60_000);
      const renewed = response.cookies.find((item) => item.name === 'GZCTF_Token');
      assert.equal(renewed?.value, cookie.split('=')[1], 'same token, new expiry');
      assert.equal(renewed?.maxAge, 7 * 24 * 60 * 60);

      // A fresh session is not rewritten on every request.
      const again = await profile(cookie);
      assert.equal(again.cookies.length, 0);
    });

    test('an answer that re-sends the cookie is never marked for shared caches, however public the page', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const unsigned = await ctx.app.inject({ method: 'GET', url: '/api/game' });
      assert.match(String(unsigned.headers['cache-control']), /\bpublic\b/, 'the list is public by itself');
      await ctx.app.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + DAY) })
        .where(eq(sessions.userId, user.id));
      const response = await ctx.app.inject({ method: 'GET', url: '/api/game', headers: { cookie } });
      assert.equal(response.statusCode, 200);
      assert.ok(
        response.cookies.some((item) => item.name === 'GZCTF_Token'),
        'the cookie was re-sent',
      );
      const cacheControl = String(response.headers['cache-control']);
      assert.doesNotMatch(cacheControl, /\bpublic\b/);
      assert.match(cacheControl, /\bprivate\b/);

      // A stored file (an avatar, kept a week by any cache) with another browser's cookie re-sent.
      const owner = await asUser(ctx.app);
      const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      const body = multipart([{ field: 'file', filename: 'a.png', content: picture, contentType: 'image/png' }]);
      const uploaded = await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/avatar',
        payload: body.payload,
        headers: { ...body.headers, cookie: owner.cookie },
      });
      const avatar = uploaded.json<string>();
      assert.match(String((await ctx.app.inject({ method: 'GET', url: avatar })).headers['cache-control']), /public/);
      const visitor = await asUser(ctx.app);
      await ctx.app.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + DAY) })
        .where(eq(sessions.userId, visitor.user.id));
      const asset = await ctx.app.inject({ method: 'GET', url: avatar, headers: { cookie: visitor.cookie } });
      assert.equal(asset.statusCode, 200);
      assert.ok(
        asset.cookies.some((item) => item.name === 'GZCTF_Token'),
        'the cookie was re-sent',
      );
      assert.doesNotMatch(String(asset.headers['cache-control']), /\bpublic\b/);
    });

    test('last visit time and address are refreshed at most once every 5 seconds', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const past = new Date(Date.now() - 60_000);
      await ctx.app.db.update(users).set({ lastVisitedAt: past }).where(eq(users.id, user.id));
      await profile(cookie);
      const first = (await userRow(ctx.app, user.id))!;
      assert.ok(first.lastVisitedAt.getTime() > past.getTime());
      assert.equal(first.ip, '127.0.0.1');

      await profile(cookie);
      const second = (await userRow(ctx.app, user.id))!;
      assert.equal(second.lastVisitedAt.getTime(), first.lastVisitedAt.getTime(), 'not again within 5 s');

      // The next visit after the interval records the new address too: first on a cached session
      // lookup (written with others a little later), then on one read from the database.
      const cached = ctx.app.sessionCache.lookups.get(hashToken(cookie.split('=')[1]!));
      assert.ok(cached, 'the lookup is cached');
      cached.user.lastVisitedAt = past;
      await ctx.app.db.update(users).set({ lastVisitedAt: past }).where(eq(users.id, user.id));
      await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie },
        remoteAddress: '198.51.100.4',
      });
      await ctx.app.sessionCache.flushVisits();
      const third = (await userRow(ctx.app, user.id))!;
      assert.equal(third.ip, '198.51.100.4');
      assert.ok(third.lastVisitedAt.getTime() > past.getTime());

      ctx.app.sessionCache.lookups.forgetUser(user.id);
      await ctx.app.db.update(users).set({ lastVisitedAt: past }).where(eq(users.id, user.id));
      await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie },
        remoteAddress: '203.0.113.9',
      });
      assert.equal((await userRow(ctx.app, user.id))!.ip, '203.0.113.9');
    });

    test('logout ends the session and clears the cookie', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const response = await ctx.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assert.equal(response.cookies.find((item) => item.name === 'GZCTF_Token')?.value, '');
      assert.equal((await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).length, 0);
      assert.equal((await profile(cookie)).statusCode, 401);
      const again = await ctx.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie } });
      assert.equal(again.statusCode, 401);
    });

    test('signing in signs the browser out of its previous session, other browsers stay signed in', async () => {
      const first = await createUser(ctx.app);
      const second = await createUser(ctx.app);
      const elsewhere = await signIn(ctx.app, first.userName, first.password);
      const browser = await signIn(ctx.app, first.userName, first.password);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { cookie: browser },
        payload: { userName: second.userName, password: second.password },
      });
      assert.equal(response.statusCode, 200);
      const switched = cookieFrom(response);
      assert.equal((await profile(browser)).statusCode, 401, 'the old session of this browser ended');
      assert.equal((await profile(switched)).json().userId, second.id);
      assert.equal((await profile(elsewhere)).json().userId, first.id);
    });
  });
}

describe('cookie security behind HTTPS', () => {
  const [pglite] = engines();

  test('COOKIE_SECURE marks the cookie Secure', async () => {
    const ctx = await createTestApp(pglite!, { env: testEnv({ COOKIE_SECURE: 'true' }) });
    try {
      const user = await createUser(ctx.app);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName: user.userName, password: user.password },
      });
      assert.equal(response.cookies[0]?.secure, true);
    } finally {
      await ctx.close();
    }
  });

  test('a request forwarded as HTTPS by a trusted proxy gets a Secure cookie; an untrusted claim does not', async () => {
    const trusted = await createTestApp(pglite!, { env: testEnv({ TRUST_PROXY: '127.0.0.1' }) });
    try {
      const user = await createUser(trusted.app);
      const login = (remoteAddress: string) =>
        trusted.app.inject({
          method: 'POST',
          url: '/api/account/login',
          remoteAddress,
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' },
          payload: { userName: user.userName, password: user.password },
        });
      const viaProxy = await login('127.0.0.1');
      assert.equal(viaProxy.cookies[0]?.secure, true);
      assert.equal((await userRow(trusted.app, user.id))!.ip, '198.51.100.7', 'the client address, not the proxy');
      const direct = await login('192.0.2.1');
      assert.equal(direct.cookies[0]?.secure, undefined);
    } finally {
      await trusted.close();
    }
  });
});
