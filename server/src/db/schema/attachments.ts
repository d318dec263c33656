import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { fileTypeEnum } from './enums';
import { files } from './files';

// A downloadable file: a local upload (by content hash) or a remote URL. Challenges and flags point
// at attachments, not the other way round, so a repository that deletes a challenge or flag must
// delete its attachment row itself (and release the file's reference).
export const attachments = pgTable(
  'attachments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    type: fileTypeEnum().notNull(),
    // Restrict: a file still served as challenge content must not vanish underneath it.
    localFileHash: varchar({ length: 64 }).references(() => files.hash, { onDelete: 'restrict' }),
    remoteUrl: text(),
  },
  (t) => [
    index('attachments_local_file_hash_idx').on(t.localFileHash),
    check('attachments_local_has_file', sql`${t.type} <> 'Local' or ${t.localFileHash} is not null`),
    check('attachments_remote_has_url', sql`${t.type} <> 'Remote' or ${t.remoteUrl} is not null`),
  ],
);
