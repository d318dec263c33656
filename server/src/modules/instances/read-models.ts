import { containers, gameInstances } from '../../db/schema/instances';
import { readModel } from '../../lib/read-model';

// What other modules may read of game instances and containers (lib/read-model.ts).

export const instanceRows = <TAlias extends string = 'instance_rows'>(alias: TAlias = 'instance_rows' as TAlias) =>
  readModel.select().from(gameInstances).as(alias);

export const containerRows = <TAlias extends string = 'container_rows'>(alias: TAlias = 'container_rows' as TAlias) =>
  readModel.select().from(containers).as(alias);
