import { randomBytes } from 'node:crypto';
import type { Database, Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { components } from '../../contract/api.generated';
import { avatarUrl } from '../../lib/blobs';
import { notFound } from '../../lib/http-error';
import {
  deletePost,
  findPost,
  insertPost,
  insertPostIfNone,
  lockWelcomePost,
  listPosts,
  updatePost,
  type PostWithAuthor,
} from './posts.repository';

export type PostInfoModel = components['schemas']['PostInfoModel'];
export type PostDetailModel = components['schemas']['PostDetailModel'];
export type PostEditModel = components['schemas']['PostEditModel'];

/** How many posts the home page shows (GZCTF's `/api/posts/latest`). */
export const LATEST_POSTS = 20;

export function toPostInfo(post: PostWithAuthor): PostInfoModel {
  return {
    id: post.id,
    title: post.title,
    summary: post.summary,
    isPinned: post.isPinned,
    tags: post.tags,
    authorAvatar: avatarUrl(post.authorAvatarHash),
    authorName: post.authorName,
    time: post.updatedAt.getTime(),
  };
}

export function toPostDetail(post: PostWithAuthor): PostDetailModel {
  return { ...toPostInfo(post), content: post.content };
}

export async function getPosts(db: Db, limit?: number): Promise<PostInfoModel[]> {
  return (await listPosts(db, limit)).map(toPostInfo);
}

export async function getPost(db: Db, id: string): Promise<PostDetailModel> {
  const post = await findPost(db, id);
  if (!post) throw notFound('posts.notFound');
  return toPostDetail(post);
}

// Markdown is stored as written; the client sanitises it when rendering (architecture §6.6).
const contentOf = (model: PostEditModel) => ({
  title: model.title,
  summary: model.summary ?? '',
  content: model.content ?? '',
  tags: model.tags ?? [],
});

const newPostId = () => randomBytes(4).toString('hex');

/** Creates a post by `authorId` and returns its 8-hex-digit id. */
export async function createPost(db: Db, authorId: string, model: PostEditModel): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const post = await insertPost(db, {
        id: newPostId(),
        ...contentOf(model),
        isPinned: model.isPinned ?? false,
        authorId,
        updatedAt: new Date(),
      });
      return post.id;
    } catch (error) {
      // One id in four billion is taken; try another rather than fail the admin's post.
      if (attempt < 3 && isUniqueViolation(error, 'posts_pkey')) continue;
      throw error;
    }
  }
}

/**
 * GZCTF's edit rule: when `isPinned` differs from the stored value only the pin changes; otherwise the
 * text and tags are replaced, the editor becomes the author and the time moves to now. An omitted
 * `isPinned` counts as unchanged (GZCTF's client always sends it).
 */
export async function editPost(db: Db, editorId: string, id: string, model: PostEditModel): Promise<PostDetailModel> {
  const post = await findPost(db, id);
  if (!post) throw notFound('posts.notFound');
  const changes =
    model.isPinned !== undefined && model.isPinned !== post.isPinned
      ? { isPinned: model.isPinned }
      : { ...contentOf(model), authorId: editorId, updatedAt: new Date() };
  if (!(await updatePost(db, id, changes))) throw notFound('posts.notFound');
  return getPost(db, id);
}

export async function removePost(db: Db, id: string): Promise<void> {
  if (!(await deletePost(db, id))) throw notFound('posts.notFound');
}

const WELCOME = {
  title: 'Welcome to your CTF platform',
  summary: 'The platform is up and running. Edit or delete this post from the admin pages.',
  content: [
    '## Welcome!',
    '',
    'Your capture-the-flag platform is ready. A few first steps for the admin:',
    '',
    '1. Open **Admin → Settings** to set the title, slogan, logo and account policy.',
    '2. Create a game under **Admin → Games**, then add challenges, flags and attachments.',
    '3. Publish announcements like this one from the posts page; pinned posts stay on top.',
    '',
    'Players sign up, form a team, join a game and submit flags. Good luck and have fun!',
  ].join('\n'),
  tag: 'Welcome',
};

/**
 * GZCTF adds a welcome post on a start with no posts at all (reference §1.2). Instances starting
 * together take turns: each statement sees the table as its own snapshot shows it, so two at once
 * both found it empty; one after the other, the second sees the first's post.
 */
export async function ensureWelcomePost(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockWelcomePost(tx);
    return insertPostIfNone(tx, { id: newPostId(), ...WELCOME });
  });
}
