/**
 * Content-Type for `/assets/{hash}/{filename}`, guessed from the name as GZCTF does.
 *
 * Files are served from our own origin, so anything a browser would run there (HTML, SVG, XML,
 * scripts) would let whoever uploaded it act as the signed-in visitor. Those types are therefore sent
 * as `text/plain`. Only raster pictures are shown inline (avatars, logos, posters, pictures in
 * markdown); every other file is an attachment, which the browser downloads under its name rather
 * than opening as a page of ours (a PDF viewer, a text file read as markup by some plug-in). SVG is
 * not a picture here: it can carry script. Unknown extensions are `application/octet-stream`, and
 * every response carries `nosniff`.
 */
const TYPES: Record<string, string> = {
  // pictures
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  // documents and text
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  json: 'application/json',
  css: 'text/css; charset=utf-8',
  // archives and binaries
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  xz: 'application/x-xz',
  bz2: 'application/x-bzip2',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  pcap: 'application/vnd.tcpdump.pcap',
  pcapng: 'application/octet-stream',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  // media and fonts
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

// Rendered or executed by browsers in the page's origin.
const ACTIVE = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'wasm',
  'swf',
  'vbs',
  'hta',
  'appcache',
  'manifest',
  'webmanifest',
]);

export interface AssetType {
  contentType: string;
  /** Send `Content-Disposition: attachment` so the browser downloads instead of opening it. */
  attachment: boolean;
}

export function assetType(fileName: string): AssetType {
  const dot = fileName.lastIndexOf('.');
  const extension = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  if (ACTIVE.has(extension)) return { contentType: 'text/plain; charset=utf-8', attachment: true };
  const contentType = TYPES[extension] ?? 'application/octet-stream';
  return { contentType, attachment: !isInlineImage(contentType) };
}

/** A raster picture a browser only ever decodes (never an SVG document, which ACTIVE already defuses). */
export function isInlineImage(contentType: string): boolean {
  return contentType.startsWith('image/') && !contentType.startsWith('image/svg');
}

/** RFC 6266 `attachment` header with an ASCII fallback and the UTF-8 name. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Avatars, logos and posters are addressed as `/assets/{hash}/avatar` (no extension), so their type
 * comes from the first bytes instead. Only WebP, PNG, JPEG and GIF: the formats we produce or accept.
 */
export function sniffImageType(head: Buffer): string | undefined {
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'image/gif';
  return undefined;
}
