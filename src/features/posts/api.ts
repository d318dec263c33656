import { postsApi, type PostInfoModel } from './api.generated';

export type { PostInfoModel } from './api.generated';

/**
 * Posts are read here (Info tag, `/api/posts…`) and written by the edit feature (`/api/edit/posts…`).
 * Both sides use the 'Post' tag: the list under id 'LIST', one post under its id, so an edit refreshes
 * exactly the lists and the post it touched.
 */
export const api = postsApi.enhanceEndpoints({
  addTagTypes: ['Post'],
  endpoints: {
    infoGetPosts: { providesTags: [{ type: 'Post', id: 'LIST' }] },
    infoGetLatestPosts: { providesTags: [{ type: 'Post', id: 'LIST' }] },
    // A missing post is a page state ("not found"), not an error to announce.
    infoGetPost: { providesTags: (_result, _error, { id }) => [{ type: 'Post', id }], extraOptions: { quiet: [404] } },
  },
});

/** Pinned posts first, then the most recently updated (the order GZCTF's lists use). */
export function sortPosts<T extends Pick<PostInfoModel, 'isPinned' | 'time'>>(posts: readonly T[]): T[] {
  return [...posts].sort((a, b) => Number(b.isPinned) - Number(a.isPinned) || b.time - a.time);
}

/** All posts (`GET /api/posts`), pinned first. */
export function usePosts() {
  const result = api.useInfoGetPostsQuery();
  return { ...result, posts: result.data ? sortPosts(result.data) : undefined };
}

/** The latest posts for the home page (`GET /api/posts/latest`), pinned first. */
export function useLatestPosts() {
  const result = api.useInfoGetLatestPostsQuery();
  return { ...result, posts: result.data ? sortPosts(result.data) : undefined };
}

/**
 * One post with its content (`GET /api/posts/{id}`); `skip` for a post that does not exist yet,
 * `fresh` to read it again on mount (an editor must not start from an older cached copy).
 */
export function usePost(id: string, { skip = false, fresh = false }: { skip?: boolean; fresh?: boolean } = {}) {
  return api.useInfoGetPostQuery({ id }, { skip, refetchOnMountOrArgChange: fresh });
}
