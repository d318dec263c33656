import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
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

/** A file written to disk as it arrived (`receiveUploads`): where it is, its SHA-256 and its size. */
export interface SpooledFile {
  fieldname: string;
  /** The name the browser sent (may be empty). */
  filename: string;
  mimetype: string;
  path: string;
  hash: string;
  size: number;
}

/**
 * Hands each wanted file part of a multipart request to `keep`, in order, and reads past the rest.
 * 400 `assets.noFile` when the request is not multipart or carries none of the wanted files.
 */
async function eachUpload(
  request: FastifyRequest,
  options: UploadOptions,
  keep: (part: MultipartFile) => Promise<void>,
): Promise<void> {
  if (!request.isMultipart()) throw new HttpError(400, 'assets.noFile');
  let kept = 0;
  try {
    const parts = request.parts(options.maxBytes ? { limits: { fileSize: options.maxBytes } } : undefined);
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      // Only what is kept is held: a form of 32 large files to a one-file route costs one.
      if (!options.fields.includes(part.fieldname) || kept >= (options.maxFiles ?? Infinity)) {
        await drain(part.file);
        continue;
      }
      await keep(part);
      kept += 1;
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
  if (kept === 0) throw new HttpError(400, 'assets.noFile');
}

/**
 * Reads the files of a multipart request into memory: for the routes that take one small file
 * (pictures under 3 MiB, writeups), which the caller then decodes or hashes whole.
 */
export async function readUploads(request: FastifyRequest, options: UploadOptions): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  await eachUpload(request, options, async (part) => {
    const buffer = await part.toBuffer();
    files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, buffer });
  });
  return files;
}

/**
 * Writes the files of a multipart request into `directory` as they arrive, hashing them on the way,
 * so a request of 32 files of 64 MiB (the admin's asset upload) holds a few chunks in memory rather
 * than 2 GiB. The caller moves or removes them (`discardUploads`); on failure none is left.
 */
export async function receiveUploads(
  request: FastifyRequest,
  options: UploadOptions,
  directory: string,
): Promise<SpooledFile[]> {
  const files: SpooledFile[] = [];
  try {
    await eachUpload(request, options, async (part) => {
      files.push(await spool(request, part, directory));
    });
  } catch (error) {
    await discardUploads(files);
    throw error;
  }
  return files;
}

/**
 * Removes files `receiveUploads` left in `directory` (a process that crashed mid-upload) last
 * written before `before` (Unix ms); newer ones may be arriving for another instance on the same
 * data directory.
 */
export async function removeStaleUploads(directory: string, before: number): Promise<void> {
  const names = await fs.promises.readdir(directory).catch(() => []);
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const file = path.join(directory, name);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (stat && stat.mtimeMs < before) await fs.promises.rm(file, { force: true });
  }
}

/** Removes what `receiveUploads` wrote and is still there. */
export async function discardUploads(files: readonly SpooledFile[]): Promise<void> {
  await Promise.all(files.map((file) => fs.promises.rm(file.path, { force: true })));
}

async function spool(request: FastifyRequest, part: MultipartFile, directory: string): Promise<SpooledFile> {
  await fs.promises.mkdir(directory, { recursive: true });
  const target = path.join(directory, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, measure, fs.createWriteStream(target, { flags: 'wx' }));
    // Past the size limit the parser cuts the file short and marks it, rather than failing the stream.
    if (part.file.truncated) throw new request.server.multipartErrors.RequestFileTooLargeError();
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  return {
    fieldname: part.fieldname,
    filename: part.filename,
    mimetype: part.mimetype,
    path: target,
    hash: hash.digest('hex'),
    size,
  };
}
