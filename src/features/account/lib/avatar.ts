import { formatFileSize } from '@/shared/lib/fileSize';
import { isAcceptedImage } from '@/shared/lib/images';
import { textKey, type TextRef } from '@/shared/text/textRef';

/** The server takes avatars up to 3 MiB (reference §2.1). */
export const MAX_AVATAR_BYTES = 3 * 1024 * 1024;

/** Why a chosen file cannot be an avatar (spec §5 image types, the size limit); undefined when it can. */
export function avatarProblem(file: { name: string; type: string; size: number }): TextRef | undefined {
  if (!isAcceptedImage(file)) return textKey('account:avatar.wrongType', { name: file.name });
  if (file.size === 0) return textKey('account:avatar.empty', { name: file.name });
  if (file.size > MAX_AVATAR_BYTES) {
    return textKey('account:avatar.tooLarge', {
      size: formatFileSize(file.size),
      limit: formatFileSize(MAX_AVATAR_BYTES),
    });
  }
  return undefined;
}
