import { cheatInfo, solves, submissions } from '../../db/schema/submissions';
import { readModel } from '../../lib/read-model';

// What other modules may read of submissions and solves (lib/read-model.ts).

export const submissionRows = <TAlias extends string = 'submission_rows'>(
  alias: TAlias = 'submission_rows' as TAlias,
) => readModel.select().from(submissions).as(alias);

export const solveRows = <TAlias extends string = 'solve_rows'>(alias: TAlias = 'solve_rows' as TAlias) =>
  readModel.select().from(solves).as(alias);

export const cheatRows = <TAlias extends string = 'cheat_rows'>(alias: TAlias = 'cheat_rows' as TAlias) =>
  readModel.select().from(cheatInfo).as(alias);
