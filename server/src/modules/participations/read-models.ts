import { participations, userParticipations } from '../../db/schema/participations';
import { readModel } from '../../lib/read-model';

// What other modules may read of participations and which members play in them (lib/read-model.ts).

export const participationRows = <TAlias extends string = 'participation_rows'>(
  alias: TAlias = 'participation_rows' as TAlias,
) => readModel.select().from(participations).as(alias);

export const memberParticipationRows = <TAlias extends string = 'member_participation_rows'>(
  alias: TAlias = 'member_participation_rows' as TAlias,
) => readModel.select().from(userParticipations).as(alias);
