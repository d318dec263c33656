import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { teamMembers, teams } from '../../db/schema/teams';

/**
 * A new team captained by the first member, with every member joined: the admin's batch of new users
 * (accounts module) creates their teams with it, in the batch's one transaction.
 */
export async function insertTeamWithMembers(tx: Db, name: string, memberIds: string[]): Promise<number> {
  const [captainId] = memberIds;
  if (!captainId) throw new Error('a team needs at least one member');
  const [team] = await tx
    .insert(teams)
    .values({ name, captainId, inviteToken: randomBytes(16).toString('hex') })
    .returning({ id: teams.id });
  await tx
    .insert(teamMembers)
    .values([...new Set(memberIds)].map((userId) => ({ teamId: team!.id, userId })))
    .onConflictDoNothing();
  return team!.id;
}
