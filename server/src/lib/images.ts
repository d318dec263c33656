import sharp from 'sharp';
import { HttpError } from './http-error';

/**
 * Uploaded pictures (avatars, posters, the logo) are re-encoded to WebP as GZCTF does (reference
 * §5.17). Decoding is the safety check too: a file that is not really an image of an accepted kind
 * is refused, whatever its name or declared type says, and re-encoding strips anything else it held.
 */

/** 3 MiB, GZCTF's limit for avatars, posters and the logo. */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;

// png, gif, jpeg, webp, avif and heic are what the client offers (client spec §5); sharp reports AVIF
// and HEIC both as `heif`. SVG is left out on purpose: it is a document, not a picture.
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'heif', 'tiff']);

// A few MiB of compressed PNG can claim billions of pixels; refuse those before decoding them.
const MAX_INPUT_PIXELS = 50_000_000;

export interface WebpOptions {
  /** Resize to this width, keeping the aspect ratio. Without it the size is kept. */
  width?: number;
}

function invalidImage(): HttpError {
  return new HttpError(400, 'assets.invalidImage');
}

/** Converts an uploaded image to WebP; 400 `assets.invalidImage` when it is not an accepted image. */
export async function toWebp(buffer: Buffer, options: WebpOptions = {}): Promise<Buffer> {
  if (buffer.length === 0) throw invalidImage();
  if (buffer.length > MAX_IMAGE_BYTES) throw new HttpError(400, 'assets.imageTooLarge', { limit: '3 MiB' });
  let format: string | undefined;
  try {
    format = (await sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw invalidImage();
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw invalidImage();
  try {
    let image = sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    if (options.width) image = image.resize({ width: options.width });
    return await image.webp().toBuffer();
  } catch {
    // Truncated or corrupt data fails here rather than in `metadata()`.
    throw invalidImage();
  }
}
