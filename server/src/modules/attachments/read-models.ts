import { files } from '../../db/schema/files';
import { readModel } from '../../lib/read-model';

// What other modules may read of the stored files' records (lib/read-model.ts): a file's name, size
// and age by its hash. References are taken and dropped through the module's index.ts.

export const fileRows = <TAlias extends string = 'file_rows'>(alias: TAlias = 'file_rows' as TAlias) =>
  readModel
    .select({ hash: files.hash, name: files.name, size: files.size, createdAt: files.createdAt })
    .from(files)
    .as(alias);
