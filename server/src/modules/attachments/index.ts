// The attachments module's public surface: attachment rows, the file references they hold, the stored
// files' records (lib/storage.ts re-exports those with the disk half) and the admin's list of them.
export { attachmentFileHashes, findAttachments } from './attachments.repository';
export { findFileRow } from './blobs.repository';
export { releaseFile, releaseFileRow, removeBlob, storeFile, type StoredFile } from './blobs.service';
export {
  createAttachment,
  dropAttachments,
  parseAttachment,
  releaseFiles,
  releaseHashes,
  removeBlobs,
  toAttachmentModel,
  type AttachmentSpec,
} from './attachments.service';
export { getFiles } from './files.service';
