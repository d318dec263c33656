import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { posts } from '../../db/schema/posts';
import { userRows } from '../accounts/read-models';

export type PostRow = typeof posts.$inferSelect;
export type NewPost = typeof posts.$inferInsert;
export type PostWithAuthor = PostRow & { authorName: string | null; authorAvatarHash: string | null };

const author = userRows('author');
const admin = userRows('admin');

const withAuthor = (db: Db) =>
  db
    .select({ ...getTableColumns(posts), authorName: author.userName, authorAvatarHash: author.avatarHash })
    .from(posts)
    .leftJoin(author, eq(author.id, posts.authorId));

/** Pinned first, then the most recently updated. */
export async function listPosts(db: Db, limit?: number): Promise<PostWithAuthor[]> {
  const query = withAuthor(db).orderBy(desc(posts.isPinned), desc(posts.updatedAt), posts.id);
  return limit === undefined ? query : query.limit(limit);
}

export async function findPost(db: Db, id: string): Promise<PostWithAuthor | undefined> {
  const [row] = await withAuthor(db).where(eq(posts.id, id));
  return row;
}

export async function insertPost(db: Db, values: NewPost): Promise<PostRow> {
  const [row] = await db.insert(posts).values(values).returning();
  return row!;
}

export async function updatePost(db: Db, id: string, changes: Partial<Omit<NewPost, 'id'>>): Promise<boolean> {
  const rows = await db.update(posts).set(changes).where(eq(posts.id, id)).returning({ id: posts.id });
  return rows.length > 0;
}

export async function deletePost(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(posts).where(eq(posts.id, id)).returning({ id: posts.id });
  return rows.length > 0;
}

/**
 * Holds the welcome post's lock until the transaction ends: under it, `insertPostIfNone` of one
 * starting server sees what another's committed. Advisory, as there is no row to lock before the
 * post exists; free on PGlite, whose transactions run one at a time anyway.
 */
export async function lockWelcomePost(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('posts:welcome', 0))`);
}

/**
 * Inserts the post only while the table is empty (under `lockWelcomePost`, so two starting servers add one).
 * Its author is the earliest registered admin, so the post shows a name rather than none; on a
 * database without an admin it has no author.
 */
export async function insertPostIfNone(
  db: Db,
  values: { id: string; title: string; summary: string; content: string; tag: string },
): Promise<boolean> {
  const result = await db.execute<{ id: string }>(sql`
    insert into ${posts} (id, title, summary, content, is_pinned, tags, author_id)
    select ${values.id}, ${values.title}, ${values.summary}, ${values.content}, false, array[${values.tag}]::text[],
      (select ${admin.id} from ${admin} where ${admin.role} = 'Admin' order by ${admin.registerAt}, ${admin.id} limit 1)
    where not exists (select 1 from ${posts})
    returning id`);
  return result.rows.length > 0;
}
