import { teamRows } from '../teams/read-models';

/** The teams joined beside participations (the review list, the cheat records' and traffic lists' cards). */
export const team = teamRows();

/** What a participation's team card shows of its team: the columns both lists select. */
export const teamCard = {
  id: team.id,
  name: team.name,
  bio: team.bio,
  avatarHash: team.avatarHash,
  locked: team.locked,
  captainId: team.captainId,
};
