import { solves, submissions } from '../../db/schema/submissions';
import { readModel } from '../../lib/read-model';

// What other modules may read of submissions and solves (lib/read-model.ts).

export const submissionRows = (alias = 'submission_rows') => readModel.select().from(submissions).as(alias);

export const solveRows = (alias = 'solve_rows') => readModel.select().from(solves).as(alias);
