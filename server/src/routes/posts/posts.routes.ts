import type { Handlers } from '../../contract/handlers';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import { createPost, editPost, getPost, getPosts, LATEST_POSTS, removePost } from '../../modules/posts';

/**
 * Posts live in one module although GZCTF splits them over two tags: reading is public (Info,
 * `/api/posts…`) and writing is for admins (Edit, `/api/edit/posts…`).
 */
export const postsHandlers: Handlers = {
  async infoGetPosts(request) {
    return getPosts(request.server.db);
  },

  async infoGetLatestPosts(request) {
    return getPosts(request.server.db, LATEST_POSTS);
  },

  async infoGetPost(request) {
    return getPost(request.server.db, request.params.id);
  },

  async editAddPost(request, reply) {
    const id = await createPost(request.server.db, requireUser(request).id, request.body);
    request.log.info({ status: 'Success' }, `Post ${id} "${request.body.title}" created`);
    return sendJsonString(reply, id);
  },

  async editUpdatePost(request) {
    const post = await editPost(request.server.db, requireUser(request).id, request.params.id, request.body);
    request.log.info({ status: 'Success' }, `Post ${post.id} "${post.title}" updated`);
    return post;
  },

  async editDeletePost(request, reply) {
    await removePost(request.server.db, request.params.id);
    request.log.info({ status: 'Success' }, `Post ${request.params.id} deleted`);
    return sendEmpty(reply);
  },
};
