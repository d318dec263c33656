import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';

/**
 * Row-locks a user (`no key update`, as the teams module's `lockTeam`) until the caller's transaction
 * ends. Whatever counts or changes the teams a user captains (create, transfer to them) holds this
 * lock, which is what makes "at most 3 captaincies" hold under concurrent requests.
 */
export async function lockUser(tx: Db, userId: string): Promise<{ id: string; userName: string } | undefined> {
  const [row] = await tx
    .select({ id: users.id, userName: users.userName })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}
