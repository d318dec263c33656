import { participations } from '../../db/schema/participations';
import { readModel } from '../../lib/read-model';

// What other modules may read of participations (lib/read-model.ts).

export const participationRows = <TAlias extends string = 'participation_rows'>(
  alias: TAlias = 'participation_rows' as TAlias,
) => readModel.select().from(participations).as(alias);
