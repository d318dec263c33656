import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gameNotices } from '../../db/schema/notices';

export type NoticeRow = typeof gameNotices.$inferSelect;
export type NewNotice = typeof gameNotices.$inferInsert;

export async function insertNotice(db: Db, values: NewNotice): Promise<NoticeRow> {
  const [row] = await db.insert(gameNotices).values(values).returning();
  return row!;
}

/** Newest first, as the edit page lists them. */
export async function listNormalNotices(db: Db, gameId: number): Promise<NoticeRow[]> {
  return db
    .select()
    .from(gameNotices)
    .where(and(eq(gameNotices.gameId, gameId), eq(gameNotices.type, 'Normal')))
    .orderBy(desc(gameNotices.publishedAt), desc(gameNotices.id));
}

/** Every notice of a game as players list them: Normal ones first, then the platform's, each newest first (reference §2.5). */
export async function listGameNotices(db: Db, gameId: number): Promise<NoticeRow[]> {
  return db
    .select()
    .from(gameNotices)
    .where(eq(gameNotices.gameId, gameId))
    .orderBy(sql`${gameNotices.type} = 'Normal' desc`, desc(gameNotices.publishedAt), desc(gameNotices.id));
}

export async function findNotice(db: Db, gameId: number, id: number): Promise<NoticeRow | undefined> {
  const [row] = await db
    .select()
    .from(gameNotices)
    .where(and(eq(gameNotices.id, id), eq(gameNotices.gameId, gameId)));
  return row;
}

/** Only Normal notices are edited, and the type is part of the condition so a race cannot slip by. */
export async function updateNormalNotice(
  db: Db,
  gameId: number,
  id: number,
  changes: { values: string[]; publishedAt: Date },
): Promise<NoticeRow | undefined> {
  const [row] = await db
    .update(gameNotices)
    .set(changes)
    .where(and(eq(gameNotices.id, id), eq(gameNotices.gameId, gameId), eq(gameNotices.type, 'Normal')))
    .returning();
  return row;
}

export async function deleteNormalNotice(db: Db, gameId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(gameNotices)
    .where(and(eq(gameNotices.id, id), eq(gameNotices.gameId, gameId), eq(gameNotices.type, 'Normal')))
    .returning({ id: gameNotices.id });
  return rows.length > 0;
}
