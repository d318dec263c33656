import { participations, userParticipations } from '../../db/schema/participations';
import { readModel } from '../../lib/read-model';

// What other modules may read of participations and which members play in them (lib/read-model.ts).

export const participationRows = (alias = 'participation_rows') => readModel.select().from(participations).as(alias);

export const memberParticipationRows = (alias = 'member_participation_rows') =>
  readModel.select().from(userParticipations).as(alias);
