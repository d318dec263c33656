import { assetsApi as generated, type AssetsUploadApiArg } from './assets.generated';

export type { LocalFile } from './assets.generated';

/**
 * Stored files (`/api/assets`): the admin files page and the challenge editor both upload and delete
 * them. Lists of files provide the 'Asset' tag, so any upload or deletion refreshes them.
 */
export const assetsApi = generated.enhanceEndpoints({
  addTagTypes: ['Asset'],
  endpoints: {
    assetsUpload: { invalidatesTags: ['Asset'] },
    assetsDelete: { invalidatesTags: ['Asset'] },
  },
});

/**
 * The multipart body: the generated argument type describes the form's fields, while the base query
 * sends a FormData as it is (the browser writes the boundary).
 */
export function assetsUploadBody(files: readonly File[]): AssetsUploadApiArg['body'] {
  const form = new FormData();
  for (const file of files) form.append('files', file);
  return form as unknown as AssetsUploadApiArg['body'];
}

export const { useAssetsUploadMutation, useAssetsDeleteMutation } = assetsApi;
