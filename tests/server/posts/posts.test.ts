import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { posts } from '../../../server/src/db/schema';
import { ensureWelcomePost } from '../../../server/src/modules/posts/posts.service';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';

const validPost = (overrides: Record<string, unknown> = {}) => ({
  title: 'Game starts tomorrow',
  summary: 'Registration closes tonight',
  content: '# Rules\n\nBe nice. <script>alert(1)</script> stays as written.',
  tags: ['news', 'rules'],
  isPinned: false,
  ...overrides,
});

for (const engine of engines()) {
  describe(`posts (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: { user: { id: string; userName: string }; cookie: string };

    before(async () => {
      ctx = await createTestApp(engine);
      admin = await asUser(ctx.app, 'Admin');
    });
    after(async () => ctx.close());

    const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie?: string) =>
      ctx.app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });

    async function addPost(overrides: Record<string, unknown> = {}): Promise<string> {
      const response = await inject('POST', '/api/edit/posts', validPost(overrides), admin.cookie);
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      const id = response.json();
      assertMatchesContract('editAddPost', id);
      return id;
    }

    test('the first start creates a welcome post, and only one', async () => {
      const response = await inject('GET', '/api/posts');
      assert.equal(response.statusCode, 200);
      const list = response.json();
      assertMatchesContract('infoGetPosts', list);
      assert.equal(list.length, 1);
      assert.match(list[0].title, /Welcome/);
      assert.equal(list[0].authorName, null);
      // A second ready() (another instance starting) adds nothing.
      const { ensureWelcomePost } = await import('../../../server/src/modules/posts/posts.service');
      assert.equal(await ensureWelcomePost(ctx.app.db), false);
      assert.equal((await inject('GET', '/api/posts')).json().length, 1);
    });

    test('the welcome post names the first admin as its author, so the client shows a name', async () => {
      // The app started before any user existed; a real first start creates the admin first.
      await ctx.app.db.delete(posts);
      const { ensureWelcomePost } = await import('../../../server/src/modules/posts/posts.service');
      assert.equal(await ensureWelcomePost(ctx.app.db), true);
      const [welcome] = (await inject('GET', '/api/posts')).json();
      assertMatchesContract('infoGetPosts', [welcome]);
      assert.match(welcome.title, /Welcome/);
      assert.equal(welcome.authorName, admin.user.userName);
    });

    test('an admin creates a post with an 8-hex-digit id; its markdown is stored as written', async () => {
      const id = await addPost();
      assert.match(id, /^[0-9a-f]{8}$/);
      const response = await inject('GET', `/api/posts/${id}`);
      assert.equal(response.statusCode, 200);
      const post = response.json();
      assertMatchesContract('infoGetPost', post);
      assert.equal(post.content, validPost().content);
      assert.deepEqual(post.tags, ['news', 'rules']);
      assert.equal(post.authorName, admin.user.userName);
      assert.equal(post.isPinned, false);
      assert.ok(Math.abs(post.time - Date.now()) < 60_000);
    });

    test('summary, content and tags may be left out', async () => {
      const id = await addPost({ summary: undefined, content: undefined, tags: undefined, isPinned: undefined });
      const post = (await inject('GET', `/api/posts/${id}`)).json();
      assertMatchesContract('infoGetPost', post);
      assert.equal(post.summary, '');
      assert.equal(post.content, '');
      assert.deepEqual(post.tags, []);
    });

    test('lists put pinned posts first, then the newest', async () => {
      const older = await addPost({ title: 'older' });
      const pinned = await addPost({ title: 'pinned', isPinned: true });
      const newer = await addPost({ title: 'newer' });
      const list = (await inject('GET', '/api/posts')).json();
      assertMatchesContract('infoGetPosts', list);
      const ids = list.map((post: { id: string }) => post.id);
      assert.equal(ids[0], pinned);
      assert.ok(ids.indexOf(newer) < ids.indexOf(older));
      assert.equal('content' in list[0], false, 'lists carry no content');
    });

    test('latest returns at most 20 posts in the same order', async () => {
      for (let i = 0; i < 18; i++) await addPost({ title: `bulk ${i}` });
      const all = (await inject('GET', '/api/posts')).json();
      assert.ok(all.length > 20);
      const latest = await inject('GET', '/api/posts/latest');
      assert.equal(latest.statusCode, 200);
      assertMatchesContract('infoGetLatestPosts', latest.json());
      assert.deepEqual(latest.json(), all.slice(0, 20));
    });

    test('editing replaces the text, makes the editor the author and moves the time', async () => {
      const id = await addPost({ title: 'draft' });
      const other = await asUser(ctx.app, 'Admin');
      const before = (await inject('GET', `/api/posts/${id}`)).json();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await inject(
        'PUT',
        `/api/edit/posts/${id}`,
        validPost({ title: 'final', summary: 's2', content: 'c2', tags: ['x'] }),
        other.cookie,
      );
      assert.equal(response.statusCode, 200, response.body);
      const post = response.json();
      assertMatchesContract('editUpdatePost', post);
      assert.equal(post.title, 'final');
      assert.equal(post.summary, 's2');
      assert.equal(post.content, 'c2');
      assert.deepEqual(post.tags, ['x']);
      assert.equal(post.authorName, other.user.userName);
      assert.ok(post.time > before.time);
    });

    test('a changed isPinned changes only the pin', async () => {
      const id = await addPost({ title: 'keep me' });
      const before = (await inject('GET', `/api/posts/${id}`)).json();
      const response = await inject(
        'PUT',
        `/api/edit/posts/${id}`,
        validPost({ title: 'ignored', content: 'ignored', isPinned: true }),
        admin.cookie,
      );
      assert.equal(response.statusCode, 200);
      const post = response.json();
      assertMatchesContract('editUpdatePost', post);
      assert.equal(post.isPinned, true);
      assert.equal(post.title, 'keep me');
      assert.equal(post.content, before.content);
      assert.equal(post.time, before.time);
    });

    test('deleting a post removes it; a second delete is 404', async () => {
      const id = await addPost();
      const response = await inject('DELETE', `/api/edit/posts/${id}`, undefined, admin.cookie);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assert.equal((await ctx.app.db.select().from(posts).where(eq(posts.id, id))).length, 0);
      const again = await inject('DELETE', `/api/edit/posts/${id}`, undefined, admin.cookie);
      assert.equal(again.statusCode, 404);
      assertMatchesContract('editDeletePost', again.json(), 404);
    });

    test('unknown posts are 404 {title, status} for reading and editing', async () => {
      const read = await inject('GET', '/api/posts/deadbeef');
      assert.equal(read.statusCode, 404);
      assertMatchesContract('infoGetPost', read.json(), 404);
      assert.deepEqual(read.json(), { title: 'Post not found', status: 404 });
      const edit = await inject('PUT', '/api/edit/posts/deadbeef', validPost(), admin.cookie);
      assert.equal(edit.statusCode, 404);
      assertMatchesContract('editUpdatePost', edit.json(), 404);
    });

    test('bad posts are refused with a 400 and nothing is written', async () => {
      const count = async () => (await ctx.app.db.select().from(posts)).length;
      const before = await count();
      for (const body of [
        { ...validPost(), title: undefined },
        validPost({ title: '' }),
        validPost({ title: 'x'.repeat(51) }),
        validPost({ title: { nested: true } }),
        validPost({ isPinned: 'maybe' }),
        validPost({ tags: [{ a: 1 }] }),
      ]) {
        const response = await inject('POST', '/api/edit/posts', body, admin.cookie);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assertMatchesContract('editAddPost', response.json(), 400);
        assert.ok(response.json().title.length > 0);
      }
      assert.equal(await count(), before);
      const titled = await inject('POST', '/api/edit/posts', validPost({ title: 'x'.repeat(51) }), admin.cookie);
      assert.match(titled.json().title, /title/);
    });

    test('an over-long title on edit is refused and the post is unchanged', async () => {
      const id = await addPost({ title: 'stable' });
      const response = await inject('PUT', `/api/edit/posts/${id}`, validPost({ title: 'y'.repeat(60) }), admin.cookie);
      assert.equal(response.statusCode, 400);
      assert.equal((await inject('GET', `/api/posts/${id}`)).json().title, 'stable');
    });

    test('a 50-character title and long markdown are accepted', async () => {
      const id = await addPost({ title: 'z'.repeat(50), content: 'long '.repeat(20_000) });
      assert.equal((await inject('GET', `/api/posts/${id}`)).json().title.length, 50);
    });
  });
}

const postgres = engines().find((engine) => engine.name === 'postgres');
if (postgres) {
  describe('the welcome post on PostgreSQL', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    test('instances starting together on an empty database add one welcome post, not one each', async () => {
      // Each round is a fresh start: an empty table and three instances' onReady at once.
      for (let round = 0; round < 20; round++) {
        await database.db.delete(posts);
        const added = await Promise.all([0, 1, 2].map(() => ensureWelcomePost(database.db)));
        const [{ n }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(posts)) as [{ n: number }];
        assert.equal(n, 1, `round ${round}`);
        assert.equal(added.filter(Boolean).length, 1, `round ${round}: exactly one reports it added the post`);
      }
    });
  });
}
