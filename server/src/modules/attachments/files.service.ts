import type { Db } from '../../db/client';
import { listFileRows } from './blobs.repository';

/**
 * A page of stored files for the admin's file list, newest first; `total` is the page length, as the
 * contract documents.
 */
export async function getFiles(db: Db, page: { count: number; skip: number }) {
  const rows = await listFileRows(db, page);
  const data = rows.map((row) => ({ hash: row.hash, name: row.name }));
  return { data, length: data.length, total: data.length };
}
