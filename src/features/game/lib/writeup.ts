import type { GameSubmitWriteupApiArg } from '../api';

/** The server's limit on a writeup (reference §2.5): a PDF of at most 20 MiB. */
export const WRITEUP_MAX_BYTES = 20 * 1024 * 1024;

export const isPdf = (file: File) => file.type === 'application/pdf' && /\.pdf$/i.test(file.name);

/** The writeup goes as multipart (field `file`); the base query sends a FormData as it is. */
export function writeupBody(file: File): GameSubmitWriteupApiArg['body'] {
  const form = new FormData();
  form.append('file', file);
  return form as unknown as GameSubmitWriteupApiArg['body'];
}
