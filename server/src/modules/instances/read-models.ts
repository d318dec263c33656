import { containers, gameInstances } from '../../db/schema/instances';
import { readModel } from '../../lib/read-model';

// What other modules may read of game instances and containers (lib/read-model.ts).

export const instanceRows = (alias = 'instance_rows') => readModel.select().from(gameInstances).as(alias);

export const containerRows = (alias = 'container_rows') => readModel.select().from(containers).as(alias);
