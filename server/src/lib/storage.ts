/**
 * Content-addressed file store (GZCTF's LocalFile + blob storage, reference §5.17).
 *
 * A file is named by the SHA-256 of its bytes and kept once under
 * `DATA_DIR/files/uploads/{hash[0:2]}/{hash[2:4]}/{hash}`; the `files` row counts how many things
 * (uploads, avatars, logos, attachments…) refer to it. Storing the same bytes again bumps the count,
 * releasing lowers it, and the row and the blob go away when it reaches zero.
 *
 * The store has two halves: the blobs on disk and the names derived from a hash (`lib/blobs.ts`), and
 * the `files` rows, which the attachments module owns (`modules/attachments/blobs.service.ts`, through
 * its index.ts). This file is the one place callers take both from. The attachments module itself
 * imports `lib/blobs.ts`, never this file, so the two never import each other.
 */
export * from './blobs';
export { releaseFile, releaseFileRow, removeBlob, storeFile, type StoredFile } from '../modules/attachments';
