import {
  ACCEPTED_IMAGE_EXTENSIONS,
  ACCEPTED_IMAGE_MIME_TYPES,
  IMAGE_ACCEPT,
  isAcceptedImage,
} from '@/shared/lib/images';

describe('accepted image types', () => {
  it('are png, gif, jpeg, webp, avif and heic', () => {
    expect(ACCEPTED_IMAGE_MIME_TYPES).toEqual([
      'image/png',
      'image/gif',
      'image/jpeg',
      'image/webp',
      'image/avif',
      'image/heic',
    ]);
    expect(ACCEPTED_IMAGE_EXTENSIONS).toEqual(['.png', '.gif', '.jpg', '.jpeg', '.webp', '.avif', '.heic']);
    expect(IMAGE_ACCEPT).toContain('image/heic');
    expect(IMAGE_ACCEPT).toContain('.heic');
  });

  it.each(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif', 'image/heic', 'IMAGE/PNG'])(
    'accepts %s',
    (type) => {
      expect(isAcceptedImage(new File(['x'], 'picture', { type }))).toBe(true);
    },
  );

  it.each(['image/svg+xml', 'image/bmp', 'application/pdf', 'text/html'])('refuses %s', (type) => {
    expect(isAcceptedImage(new File(['x'], 'picture.png', { type }))).toBe(false);
  });

  it('falls back to the extension when the browser gives no type', () => {
    expect(isAcceptedImage({ name: 'IMG_0001.HEIC', type: '' })).toBe(true);
    expect(isAcceptedImage({ name: 'photo.jpeg', type: '' })).toBe(true);
    expect(isAcceptedImage({ name: 'drawing.svg', type: '' })).toBe(false);
    expect(isAcceptedImage({ name: 'no-extension', type: '' })).toBe(false);
  });
});
