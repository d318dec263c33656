/** Image formats accepted for upload (spec §5): MIME type and the file extensions that go with it. */
export const ACCEPTED_IMAGE_TYPES = {
  'image/png': ['.png'],
  'image/gif': ['.gif'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/webp': ['.webp'],
  'image/avif': ['.avif'],
  'image/heic': ['.heic'],
} as const satisfies Record<string, readonly string[]>;

export type AcceptedImageType = keyof typeof ACCEPTED_IMAGE_TYPES;

export const ACCEPTED_IMAGE_MIME_TYPES = Object.keys(ACCEPTED_IMAGE_TYPES) as AcceptedImageType[];

export const ACCEPTED_IMAGE_EXTENSIONS: readonly string[] = Object.values(ACCEPTED_IMAGE_TYPES).flat();

/** For `<input type="file" accept={IMAGE_ACCEPT}>`: MIME types and extensions, since HEIC often has neither. */
export const IMAGE_ACCEPT = [...ACCEPTED_IMAGE_MIME_TYPES, ...ACCEPTED_IMAGE_EXTENSIONS].join(',');

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

/**
 * Whether a chosen file is an image we accept. The MIME type decides when the browser reports one;
 * browsers leave it empty for formats they don't know (HEIC on most desktops), and then the extension does.
 */
export function isAcceptedImage(file: { type: string; name: string }): boolean {
  const type = file.type.trim().toLowerCase();
  if (type) return type in ACCEPTED_IMAGE_TYPES;
  return ACCEPTED_IMAGE_EXTENSIONS.includes(extensionOf(file.name));
}
