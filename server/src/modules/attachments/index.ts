// The attachments module's public surface: attachment rows, the file references they hold, and the
// admin's list of stored files.
export { attachmentFileHashes, findAttachments } from './attachments.repository';
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
