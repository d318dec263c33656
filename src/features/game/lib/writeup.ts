import { filesBody } from '@/shared/api/multipart';
import type { GameSubmitWriteupApiArg } from '../api';

/** The server's limit on a writeup (reference §2.5): a PDF of at most 20 MiB. */
export const WRITEUP_MAX_BYTES = 20 * 1024 * 1024;

export const isPdf = (file: File) => file.type === 'application/pdf' && /\.pdf$/i.test(file.name);

/** The writeup upload's body (field `file`). */
export const writeupBody = (file: File) => filesBody<GameSubmitWriteupApiArg['body']>(file);
