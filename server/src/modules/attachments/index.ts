// The attachments module's public surface: attachment rows, the file references they hold, the stored
// files' records (storing and releasing a file; the disk half is lib/blobs.ts) and the admin's list of them.
export { attachmentFileHashes, findAttachments } from './attachments.repository';
export { findFileRow } from './blobs.repository';
export {
  releaseFile,
  releaseFileRow,
  removeBlob,
  storeFile,
  storeReceivedFile,
  type StoredFile,
} from './blobs.service';
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
