import { assetsApi as generated, type AssetsUploadApiArg } from './assets.generated';
import { filesBody } from './multipart';

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

/** The files of an upload, each in the field `files`. */
export const assetsUploadBody = (files: readonly File[]) => filesBody<AssetsUploadApiArg['body']>(files, 'files');

export const { useAssetsUploadMutation, useAssetsDeleteMutation } = assetsApi;
