import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error';

export interface UploadedFile {
  fieldname: string;
  /** The name the browser sent (may be empty). */
  filename: string;
  mimetype: string;
  buffer: Buffer;
}

export interface UploadOptions {
  /** Form fields whose files are wanted; files in other fields are read past, never kept. */
  fields: readonly string[];
  /** At most this many files are kept (the first ones); later ones are read past like unwanted ones. */
  maxFiles?: number;
  /** Per-file limit; without it the app-wide multipart limit applies. */
  maxBytes?: number;
  /** Message key for a file over `maxBytes` (400); without it the answer is Fastify's 413. */
  tooLargeKey?: string;
  tooLargeParams?: Record<string, unknown>;
}

/** Reads a part's stream to its end, keeping nothing (the parser moves on only once it is consumed). */
async function drain(stream: Readable): Promise<void> {
  stream.resume();
  await finished(stream);
}

const hasCode = (error: unknown, code: string) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

/**
 * Reads the files of a multipart request into memory (uploads here are pictures and challenge
 * attachments: small enough, and hashing needs every byte anyway). 400 `assets.noFile` when the
 * request is not multipart or carries none of the wanted files.
 */
export async function readUploads(request: FastifyRequest, options: UploadOptions): Promise<UploadedFile[]> {
  if (!request.isMultipart()) throw new HttpError(400, 'assets.noFile');
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts(options.maxBytes ? { limits: { fileSize: options.maxBytes } } : undefined);
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      // Only what is kept is held in memory: a form of 32 large files to a one-file route costs one.
      if (!options.fields.includes(part.fieldname) || files.length >= (options.maxFiles ?? Infinity)) {
        await drain(part.file);
        continue;
      }
      const buffer = await part.toBuffer();
      files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, buffer });
    }
  } catch (error) {
    if (options.tooLargeKey && hasCode(error, 'FST_REQ_FILE_TOO_LARGE')) {
      throw new HttpError(400, options.tooLargeKey, options.tooLargeParams);
    }
    // The multipart parser's own complaints (no boundary, a body that ends mid-part) carry no status:
    // the body was malformed, and nothing has been stored yet.
    if (typeof (error as { statusCode?: unknown }).statusCode !== 'number')
      throw new HttpError(400, 'error.badRequest');
    throw error;
  }
  if (files.length === 0) throw new HttpError(400, 'assets.noFile');
  return files;
}
