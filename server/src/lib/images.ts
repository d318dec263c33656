import sharp, { type Metadata } from 'sharp';
import { createSemaphore } from './semaphore';
import { HttpError } from './http-error';

/**
 * Uploaded pictures (avatars, posters, the logo) are re-encoded to WebP as GZCTF does (reference
 * §5.17). Decoding is the safety check too: a file that is not really an image of an accepted kind
 * is refused, whatever its name or declared type says, and re-encoding strips anything else it held.
 *
 * Decoding is what costs: a few KiB of GIF or PNG can claim tens of megapixels, each decoded to
 * 3–4 bytes and worked on by libuv's thread pool, which file reads and crypto share. So the header
 * is read first (cheap) and a picture bigger than its use needs is refused before any decoding, and
 * only a few conversions run at once in a process.
 */

/** 3 MiB, GZCTF's limit for avatars, posters and the logo. */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;

// png, gif, jpeg, webp, avif and heic are what the client offers (client spec §5); sharp reports AVIF
// and HEIC both as `heif`. SVG is left out on purpose: it is a document, not a picture.
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'heif', 'tiff']);

/** WebP's own limit on either side; an output past it cannot be written, so an input past it is refused. */
export const MAX_IMAGE_SIDE = 16_383;
/** Pictures kept at (about) their size: posters. Decoding 50 Mpx takes ~200 MB and a good fraction of a second. */
const MAX_INPUT_PIXELS = 50_000_000;
/**
 * Outputs up to this wide (avatars 300 px, the logo 640, the favicon 256) are thumbnails: a bigger
 * input adds nothing to them but decoding time and memory (the audit's 16000×3100 GIF avatar: 1.5 s
 * of CPU, ~257 MB), so they take at most `MAX_SMALL_OUTPUT_INPUT_PIXELS`.
 */
const SMALL_OUTPUT_WIDTH = 1024;
/** 4096×4096 (16.8 Mpx): more than any camera's 3 MiB photo (12 Mpx phones), still ~65 MB decoded. */
export const MAX_SMALL_OUTPUT_INPUT_PIXELS = 4096 * 4096;

/**
 * Conversions running at once in this process. sharp runs on libuv's thread pool (4 threads by
 * default); eight big conversions at once held every thread and delayed unrelated file reads by
 * half a second, and four at once took over 1 GiB. Two leave the pool room for everything else.
 */
export const MAX_CONVERSIONS = 2;
/** Conversions that may wait their turn; past that the upload is refused (429), not piled up. */
export const MAX_WAITING_CONVERSIONS = 8;
/** A conversion takes well under a second, so a full queue clears within this. */
const RETRY_AFTER_SECONDS = 2;
const conversions = createSemaphore(MAX_CONVERSIONS, MAX_WAITING_CONVERSIONS);

export interface WebpOptions {
  /** Resize to this width, keeping the aspect ratio. Without it the size is kept. */
  width?: number;
}

function invalidImage(): HttpError {
  return new HttpError(400, 'assets.invalidImage');
}

/**
 * Runs `work` in one of the process's `MAX_CONVERSIONS` conversion slots, waiting for one if need
 * be; 429 (with Retry-After) when `MAX_WAITING_CONVERSIONS` already wait.
 */
export async function inConversionSlot<T>(work: () => Promise<T>): Promise<T> {
  const ticket = conversions.enter();
  try {
    if (!(await ticket.ready)) throw new HttpError(429, 'error.tooManyRequests', { seconds: RETRY_AFTER_SECONDS });
    return await work();
  } finally {
    ticket.leave();
  }
}

/**
 * Converts an uploaded image to WebP. 400 `assets.invalidImage` when it is not an accepted image,
 * 400 `assets.imageDimensionsTooLarge` when it has more pixels than its use allows, 429 when too many
 * conversions are already waiting.
 */
export async function toWebp(buffer: Buffer, options: WebpOptions = {}): Promise<Buffer> {
  if (buffer.length === 0) throw invalidImage();
  if (buffer.length > MAX_IMAGE_BYTES) throw new HttpError(400, 'assets.imageTooLarge', { limit: '3 MiB' });
  const maxPixels =
    options.width !== undefined && options.width <= SMALL_OUTPUT_WIDTH
      ? MAX_SMALL_OUTPUT_INPUT_PIXELS
      : MAX_INPUT_PIXELS;
  let metadata: Metadata;
  try {
    // The header only: no pixel is decoded. Unlimited here so that an oversized picture gets the
    // message naming the limits rather than sharp's "exceeds pixel limit" (invalidImage).
    metadata = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage();
  }
  const { format, width, height } = metadata;
  if (!format || !ACCEPTED_FORMATS.has(format) || !width || !height) throw invalidImage();
  // Opened as below (one page), an animated GIF or WebP or a multi-page TIFF reports its first
  // frame's size here, and `pageHeight` only when all pages are opened; the first frame is all the
  // conversion decodes, so it is what is judged. `pageHeight` is read anyway should that change.
  const frameHeight = metadata.pageHeight ?? height;
  if (width > MAX_IMAGE_SIDE || frameHeight > MAX_IMAGE_SIDE || width * frameHeight > maxPixels) {
    throw new HttpError(400, 'assets.imageDimensionsTooLarge', {
      width,
      height: frameHeight,
      maxSide: MAX_IMAGE_SIDE,
      maxMegapixels: maxPixels / 1_000_000,
    });
  }
  // A thin strip resized to a width is enlarged: 100×16000 to 300 px wide would be 48000 high, which
  // WebP cannot hold. Refused as the conversion would refuse it, without decoding and enlarging first.
  if (options.width) {
    const rotated = (metadata.orientation ?? 1) >= 5;
    const [w, h] = rotated ? [frameHeight, width] : [width, frameHeight];
    if (Math.round((h * options.width) / w) > MAX_IMAGE_SIDE) throw invalidImage();
  }
  return inConversionSlot(async () => {
    try {
      // The pixel limit stays on the decoder too (sharp checks it as it opens the input), so no
      // path to a conversion skips it. Sequential reading (sharp's default today, stated so it
      // stays) streams the rows through instead of holding the whole decoded input for random access.
      let image = sharp(buffer, { limitInputPixels: maxPixels, sequentialRead: true }).rotate();
      if (options.width) image = image.resize({ width: options.width });
      return await image.webp().toBuffer();
    } catch {
      // Truncated or corrupt data fails here rather than in `metadata()`.
      throw invalidImage();
    }
  });
}
