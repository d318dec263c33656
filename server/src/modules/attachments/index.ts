// The attachments module's public surface: attachment rows and the file references they hold.
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
