import { challenges, flags } from '../../db/schema/challenges';
import { readModel } from '../../lib/read-model';

// What other modules may read of challenges and their flags (lib/read-model.ts). Changes go through
// the module's index.ts.

export const challengeRows = (alias = 'challenge_rows') => readModel.select().from(challenges).as(alias);

export const flagRows = (alias = 'flag_rows') => readModel.select().from(flags).as(alias);
