// The posts module's public surface: the home page's posts and the welcome post at start-up.
export { default as postsPlugin } from './posts.plugin';
export { createPost, editPost, getPost, getPosts, LATEST_POSTS, removePost } from './posts.service';
