import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../helpers/render';

export const ADMIN = { userName: 'root', role: 'Admin' } as const;
export const PLAYER = { userName: 'alice', role: 'User' } as const;

export const post = (id: string, title: string, time: number, extra: Record<string, unknown> = {}) => ({
  id,
  title,
  summary: `Summary of ${title}`,
  isPinned: false,
  tags: [] as string[],
  authorName: 'Admin',
  authorAvatar: null,
  time,
  ...extra,
});

/** `GET /api/posts` answering whatever `store.posts` holds at the time. */
export function mockPosts(initial: Array<ReturnType<typeof post>>) {
  const store = { posts: initial };
  server.use(http.get(`${API}/posts`, () => HttpResponse.json(store.posts)));
  return store;
}

export type StoredPost = ReturnType<typeof post> & { content: string };

/**
 * The posts as the server keeps them, with GZCTF's update rule (reference §2.4 "PUT
 * /api/edit/posts/{id}"): when `isPinned` differs from the stored value only the pin changes;
 * otherwise title, summary, content and tags are replaced (missing ones become empty). Serves the
 * lists, one post, and the update; records every update's body. The test may change `posts` at any
 * time (another admin).
 */
export function servePostStore(initial: StoredPost[]) {
  const store = {
    posts: initial,
    updates: [] as Array<{ id: string; body: Record<string, unknown> }>,
    /** Runs once, just before the next update is applied: a change made elsewhere in between. */
    beforeNextUpdate: null as (() => void) | null,
  };
  const info = ({ content: _content, ...rest }: StoredPost) => rest;
  server.use(
    http.get(`${API}/posts`, () => HttpResponse.json(store.posts.map(info))),
    http.get(`${API}/posts/latest`, () => HttpResponse.json(store.posts.map(info))),
    http.get(`${API}/posts/:id`, ({ params }) => {
      const found = store.posts.find((item) => item.id === params.id);
      return found
        ? HttpResponse.json(found)
        : HttpResponse.json({ title: 'Post not found', status: 404 }, { status: 404 });
    }),
    http.put(`${API}/edit/posts/:id`, async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      store.updates.push({ id: String(params.id), body });
      const meanwhile = store.beforeNextUpdate;
      store.beforeNextUpdate = null;
      meanwhile?.();
      const found = store.posts.find((item) => item.id === params.id);
      if (!found) return HttpResponse.json({ title: 'Post not found', status: 404 }, { status: 404 });
      const updated: StoredPost =
        body.isPinned !== found.isPinned
          ? { ...found, isPinned: Boolean(body.isPinned) }
          : {
              ...found,
              title: String(body.title),
              summary: typeof body.summary === 'string' ? body.summary : '',
              content: typeof body.content === 'string' ? body.content : '',
              tags: Array.isArray(body.tags) ? (body.tags as string[]) : [],
              authorName: 'root',
              time: found.time + 1,
            };
      store.posts = store.posts.map((item) => (item.id === updated.id ? updated : item));
      return HttpResponse.json(updated);
    }),
  );
  return store;
}
