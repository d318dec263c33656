import type { Db } from '../../db/client';
import type { EventType } from '../../db/schema/enums';
import { gameEvents } from '../../db/schema/notices';

export interface EventValues {
  gameId: number;
  type: EventType;
  values: string[];
  userId: string | null;
  teamId: number | null;
}

/** A monitor event of a container operation (the instances module records them); the row as inserted. */
export async function insertEvent(db: Db, event: EventValues) {
  const [row] = await db.insert(gameEvents).values(event).returning();
  return row!;
}
