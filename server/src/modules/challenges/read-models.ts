import { challenges, flags } from '../../db/schema/challenges';
import { readModel } from '../../lib/read-model';

// What other modules may read of challenges and their flags (lib/read-model.ts). Changes go through
// the module's index.ts.

export const challengeRows = <TAlias extends string = 'challenge_rows'>(alias: TAlias = 'challenge_rows' as TAlias) =>
  readModel.select().from(challenges).as(alias);

export const flagRows = <TAlias extends string = 'flag_rows'>(alias: TAlias = 'flag_rows' as TAlias) =>
  readModel.select().from(flags).as(alias);
