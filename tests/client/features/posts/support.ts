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
