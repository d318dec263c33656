import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type * as Argon2 from '@node-rs/argon2';
import { eq, inArray, sql } from 'drizzle-orm';
import { sessions, teamMembers, teams, users } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { createTeam } from '../db/fixtures';
import { asUser, createUser, signIn, uniqueName } from '../helpers/users';

// The library's own exports object, which the password module reads `hash` from at each call (an
// `import` here would get a copy of it).
const argon2 = createRequire(__filename)('@node-rs/argon2') as typeof Argon2;

const newUser = (overrides: Record<string, unknown> = {}) => {
  const userName = uniqueName('b');
  return { userName, password: 'Secret123', email: `${userName}@example.com`, ...overrides };
};

for (const engine of engines()) {
  describe(`admin users (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Awaited<ReturnType<typeof asUser>>;

    before(async () => {
      ctx = await createTestApp(engine);
      admin = await asUser(ctx.app, 'Admin');
    });
    after(async () => ctx.close());

    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie = admin.cookie) =>
      ctx.app.inject({ method, url, payload: payload as object, headers: { cookie } });
    const userCount = async () => (await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;
    const findByName = async (userName: string) =>
      (
        await ctx.app.db
          .select()
          .from(users)
          .where(sql`lower(${users.userName}) = lower(${userName})`)
      )[0];

    test('lists users in registration order with the total of all users', async () => {
      for (let i = 0; i < 3; i++) await createUser(ctx.app);
      const total = await userCount();
      const response = await call('GET', '/api/admin/users?count=2&skip=1');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assertMatchesContract('adminGetUsers', body);
      assert.equal(body.length, 2);
      assert.equal(body.data.length, 2);
      assert.equal(body.total, total);
      const all = (await call('GET', '/api/admin/users')).json();
      assert.equal(all.data[0].id, admin.user.id, 'the first registered user comes first');
      assert.deepEqual(body.data, all.data.slice(1, 3));
      const first = all.data[0];
      assert.equal(first.userName, admin.user.userName);
      assert.equal(first.role, 'Admin');
      assert.equal(first.emailConfirmed, true);
      assert.equal(typeof first.registerTimeUtc, 'number');
    });

    test('paging limits come from the contract', async () => {
      for (const query of ['count=501', 'count=-1', 'skip=-1', 'count=abc']) {
        const response = await call('GET', `/api/admin/users?${query}`);
        assert.equal(response.statusCode, 400, query);
        assertMatchesContract('adminGetUsers', response.json(), 400);
      }
      assert.equal((await call('GET', '/api/admin/users?count=0')).json().length, 0);
    });

    test('search matches name, e-mail, student number, phone, real name and id, case-insensitively', async () => {
      const target = await createUser(ctx.app, { userName: uniqueName('srch') });
      await ctx.app.db
        .update(users)
        .set({ stdNumber: 'STD-4242', phone: '+15550001234', realName: 'Ada Lovelace' })
        .where(eq(users.id, target.id));
      for (const hint of [
        target.userName.toUpperCase(),
        target.email,
        'std-4242',
        '5550001',
        'lovelace',
        target.id.slice(0, 13),
      ]) {
        const response = await call('POST', `/api/admin/users/search?hint=${encodeURIComponent(hint)}`);
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assertMatchesContract('adminSearchUsers', body);
        assert.ok(
          body.data.some((user: { id: string }) => user.id === target.id),
          `hint ${hint} should find the user`,
        );
      }
      const none = (await call('POST', '/api/admin/users/search?hint=%25no_such%25')).json();
      assert.equal(none.length, 0, 'LIKE wildcards in the hint are literal');
    });

    test('search returns at most 30 users', async () => {
      for (let i = 0; i < 31; i++) await createUser(ctx.app, { userName: uniqueName('many') });
      const body = (await call('POST', '/api/admin/users/search?hint=many')).json();
      assertMatchesContract('adminSearchUsers', body);
      assert.equal(body.data.length, 30);
    });

    test('batch creation makes confirmed users who can sign in, grouped into new teams', async () => {
      const [a, b, c] = [
        newUser({ teamName: 'Red' }),
        newUser({ teamName: 'Red', realName: 'B', stdNumber: '2' }),
        newUser(),
      ];
      const response = await call('POST', '/api/admin/users', [a, b, c]);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body, '');
      const rowA = await findByName(a.userName);
      const rowB = await findByName(b.userName);
      assert.equal(rowA?.emailConfirmed, true);
      assert.equal(rowB?.realName, 'B');
      assert.ok(await findByName(c.userName));
      const [team] = await ctx.app.db.select().from(teams).where(eq(teams.captainId, rowA!.id));
      assert.equal(team?.name, 'Red');
      const members = await ctx.app.db.select().from(teamMembers).where(eq(teamMembers.teamId, team!.id));
      assert.deepEqual(members.map((member) => member.userId).sort(), [rowA!.id, rowB!.id].sort());
      await signIn(ctx.app, c.userName, c.password);
    });

    test('batch creation hashes a few passwords at a time, leaving the threadpool to other work', async (t) => {
      // Counted at the library (the native hash runs on libuv's threadpool, four threads by default).
      const hash = argon2.hash;
      let inFlight = 0;
      let most = 0;
      let calls = 0;
      t.mock.method(argon2, 'hash', async (...args: Parameters<typeof hash>) => {
        calls += 1;
        most = Math.max(most, (inFlight += 1));
        try {
          return await hash(...args);
        } finally {
          inFlight -= 1;
        }
      });
      const batch = Array.from({ length: 12 }, () => newUser());
      const response = await call('POST', '/api/admin/users', batch);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(calls, batch.length);
      assert.ok(most <= 2, `${most} hashes ran at once`);
      await signIn(ctx.app, batch[11]!.userName, batch[11]!.password);
    });

    test('an existing user name or e-mail updates that user and resets its password', async () => {
      const existing = await createUser(ctx.app);
      const oldCookie = await signIn(ctx.app, existing.userName, existing.password);
      const before = await userCount();
      const response = await call('POST', '/api/admin/users', [
        { userName: existing.userName, email: existing.email, password: 'Changed99', realName: 'Updated' },
      ]);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(await userCount(), before);
      assert.equal((await findByName(existing.userName))?.realName, 'Updated');
      await signIn(ctx.app, existing.userName, 'Changed99');
      const profile = await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie: oldCookie },
      });
      assert.equal(profile.statusCode, 401, 'the reset password signed the user out');
    });

    test('one invalid entry writes nothing', async () => {
      const before = await userCount();
      const teamsBefore = (await ctx.app.db.select().from(teams)).length;
      const taken = await createUser(ctx.app);
      const batches = [
        [newUser({ teamName: 'Blue' }), newUser({ email: 'not-an-email' })],
        [newUser({ teamName: 'Blue' }), newUser({ userName: 'ab' })],
        [newUser({ teamName: 'Blue' }), newUser({ userName: 'x'.repeat(16) })],
        [newUser({ teamName: 'Blue' }), newUser({ teamName: 'y'.repeat(16) })],
        [newUser({ teamName: 'Blue' }), newUser({ password: 'weak' })],
        [newUser({ teamName: 'Blue' }), { userName: uniqueName(), email: 'z@example.com' }],
        // Matched by name, but the new e-mail belongs to someone else: the database refuses it.
        [newUser({ teamName: 'Blue' }), newUser({ userName: admin.user.userName, email: taken.email })],
      ];
      for (const batch of batches) {
        const response = await call('POST', '/api/admin/users', batch);
        assert.equal(response.statusCode, 400, JSON.stringify(batch));
        assertMatchesContract('adminAddUsers', response.json(), 400);
      }
      assert.equal(await userCount(), before + 1);
      assert.equal((await ctx.app.db.select().from(teams)).length, teamsBefore);
      const weak = await call('POST', '/api/admin/users', batches[4]);
      assert.match(weak.json().title, /at least 6 characters/);
      const clash = await call('POST', '/api/admin/users', batches[6]);
      assert.match(clash.json().title, /already in use/);
      const notArray = await call('POST', '/api/admin/users', { userName: 'single' });
      assert.equal(notArray.statusCode, 400);
    });

    test('get returns the profile; unknown ids are 404, malformed ones 400', async () => {
      const user = await createUser(ctx.app);
      const response = await call('GET', `/api/admin/users/${user.id}`);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assertMatchesContract('adminUserInfo', body);
      assert.equal(body.userId, user.id);
      assert.equal(body.userName, user.userName);
      assert.equal(body.role, 'User');
      const missing = await call('GET', '/api/admin/users/00000000-0000-4000-8000-000000000000');
      assert.equal(missing.statusCode, 404);
      assertMatchesContract('adminUserInfo', missing.json(), 404);
      const malformed = await call('GET', '/api/admin/users/not-a-guid');
      assert.equal(malformed.statusCode, 400);
      assertMatchesContract('adminUserInfo', malformed.json(), 400);
    });

    test('update changes only the given fields; a role change applies on the next request', async () => {
      const { user, cookie } = await asUser(ctx.app, 'User');
      const response = await call('PUT', `/api/admin/users/${user.id}`, {
        bio: 'new bio',
        realName: null,
        role: 'Admin',
        emailConfirmed: true,
      });
      assert.equal(response.statusCode, 200, response.body);
      const row = await findByName(user.userName);
      assert.equal(row?.bio, 'new bio');
      assert.equal(row?.role, 'Admin');
      assert.equal(row?.userName, user.userName, 'unchanged');
      const asAdmin = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      assert.equal(asAdmin.statusCode, 200, 'the promoted user is an admin at once');
      await call('PUT', `/api/admin/users/${user.id}`, { role: 'User' });
      const demoted = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      assert.equal(demoted.statusCode, 403);
    });

    test('update refuses duplicates, bad fields and unknown users without writing', async () => {
      const user = await createUser(ctx.app);
      const other = await createUser(ctx.app);
      const cases: Array<[unknown, RegExp | undefined]> = [
        [{ userName: other.userName.toUpperCase() }, /already taken/],
        [{ email: other.email }, /already in use/],
        [{ email: 'nope' }, undefined],
        [{ userName: 'ab' }, undefined],
        [{ bio: 'b'.repeat(129) }, /bio/],
        [{ role: 'Emperor' }, undefined],
        // Longer than the column: refused before the database (it had been a 500).
        [{ email: `${'a'.repeat(300)}@example.com` }, /email/],
      ];
      for (const [payload, title] of cases) {
        const response = await call('PUT', `/api/admin/users/${user.id}`, payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assertMatchesContract('adminUpdateUserInfo', response.json(), 400);
        if (title) assert.match(response.json().title, title);
      }
      const row = await findByName(user.userName);
      assert.equal(row?.email, user.email);
      const missing = await call('PUT', '/api/admin/users/00000000-0000-4000-8000-000000000000', { bio: 'x' });
      assert.equal(missing.statusCode, 404);
      assertMatchesContract('adminUpdateUserInfo', missing.json(), 404);
    });

    test('reset password returns a new 16-character password that works', async () => {
      const user = await createUser(ctx.app);
      const oldCookie = await signIn(ctx.app, user.userName, user.password);
      const response = await call('DELETE', `/api/admin/users/${user.id}/password`);
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      const password = response.json();
      assertMatchesContract('adminResetPassword', password);
      assert.equal(password.length, 16);
      await signIn(ctx.app, user.userName, password);
      const stale = await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie: oldCookie },
      });
      assert.equal(stale.statusCode, 401);
      const missing = await call('DELETE', '/api/admin/users/00000000-0000-4000-8000-000000000000/password');
      assert.equal(missing.statusCode, 404);
      assertMatchesContract('adminResetPassword', missing.json(), 404);
    });

    test('delete removes a user with their sessions and memberships', async () => {
      const { user } = await asUser(ctx.app, 'User');
      const captain = await createUser(ctx.app);
      const team = await createTeam(ctx.app.db, captain.id);
      await ctx.app.db.insert(teamMembers).values({ teamId: team.id, userId: user.id });
      const response = await call('DELETE', `/api/admin/users/${user.id}`);
      assert.equal(response.statusCode, 200);
      assert.equal(await findByName(user.userName), undefined);
      assert.equal((await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).length, 0);
      const again = await call('DELETE', `/api/admin/users/${user.id}`);
      assert.equal(again.statusCode, 404);
      assertMatchesContract('adminDeleteUser', again.json(), 404);
    });

    test('an admin cannot delete themself, nor a team captain', async () => {
      const self = await call('DELETE', `/api/admin/users/${admin.user.id}`);
      assert.equal(self.statusCode, 400);
      assertMatchesContract('adminDeleteUser', self.json(), 400);
      assert.equal(self.json().title, 'You cannot delete your own account');
      const captain = await createUser(ctx.app);
      await createTeam(ctx.app.db, captain.id);
      const refused = await call('DELETE', `/api/admin/users/${captain.id}`);
      assert.equal(refused.statusCode, 400);
      assertMatchesContract('adminDeleteUser', refused.json(), 400);
      assert.match(refused.json().title, /captain/);
      const rows = await ctx.app.db
        .select()
        .from(users)
        .where(inArray(users.id, [admin.user.id, captain.id]));
      assert.equal(rows.length, 2);
    });

    test('an admin cannot take away their own Admin role or confirmation; another admin can be changed', async () => {
      for (const payload of [{ role: 'User' }, { role: 'Banned' }, { role: 'Monitor' }, { emailConfirmed: false }]) {
        const response = await call('PUT', `/api/admin/users/${admin.user.id}`, payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assertMatchesContract('adminUpdateUserInfo', response.json(), 400);
        assert.equal(response.json().title, 'You cannot take away your own Admin role or your own confirmation');
      }
      const row = (await ctx.app.db.select().from(users).where(eq(users.id, admin.user.id)))[0]!;
      assert.deepEqual([row.role, row.emailConfirmed], ['Admin', true]);
      assert.equal(
        (await call('PUT', `/api/admin/users/${admin.user.id}`, { bio: 'still me', role: 'Admin' })).statusCode,
        200,
      );
      const other = await asUser(ctx.app, 'Admin');
      assert.equal((await call('PUT', `/api/admin/users/${other.user.id}`, { role: 'User' })).statusCode, 200);
    });

    test('batch creation refuses an address longer than the column, writing nothing', async () => {
      const before = await userCount();
      const response = await call('POST', '/api/admin/users', [newUser({ email: `${'a'.repeat(300)}@example.com` })]);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(await userCount(), before);
    });

    test('messages follow the request language', async () => {
      const response = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/admin/users/${admin.user.id}`,
        headers: { cookie: admin.cookie, 'accept-language': 'zh-CN' },
      });
      assert.equal(response.json().title, '不能删除自己的账户');
    });
  });
}
