import { useCallback } from 'react';
import { notificationRaised } from '@/shared/notifications/slice';
import { textKey } from '@/shared/text/textRef';
import { editApi, type EditUpdatePostApiArg, type PostEditModel } from './api.generated';

export type { PostEditModel } from './api.generated';

type Dispatch = (action: ReturnType<typeof notificationRaised>) => unknown;

/** A green notification once a mutation succeeded (style-anchors §9.4, rule 4). */
async function notifyWhenDone(queryFulfilled: Promise<unknown>, dispatch: Dispatch, key: string) {
  try {
    await queryFulfilled;
  } catch {
    return; // the error listener announces failures
  }
  dispatch(
    notificationRaised({
      variant: 'success',
      title: textKey(`posts:notification.${key}.title`),
      message: textKey(`posts:notification.${key}.message`),
    }),
  );
}

/** A pin toggle sends only the title and the new pin (see `usePinPost`). */
const isPinOnly = ({ postEditModel }: EditUpdatePostApiArg) => postEditModel.content === undefined;

/**
 * Admin content management (`/api/edit/…`).
 *
 * Posts: the posts feature reads them under the 'Post' tag ('LIST' for the lists, the post's id for
 * one post); writing here invalidates exactly what changed, so lists, the post page and the home
 * page refresh.
 */
export const api = editApi.enhanceEndpoints({
  addTagTypes: ['Post'],
  endpoints: {
    editAddPost: {
      invalidatesTags: [{ type: 'Post', id: 'LIST' }],
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => notifyWhenDone(queryFulfilled, dispatch, 'created'),
    },
    editUpdatePost: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
      onQueryStarted: (arg, { dispatch, queryFulfilled }) =>
        notifyWhenDone(
          queryFulfilled,
          dispatch,
          isPinOnly(arg) ? (arg.postEditModel.isPinned ? 'pinned' : 'unpinned') : 'saved',
        ),
    },
    editDeletePost: {
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id },
      ],
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => notifyWhenDone(queryFulfilled, dispatch, 'deleted'),
    },
  },
});

/** The post fields the editor starts from: a stored post, or nothing for a new one. */
export interface EditablePost extends Required<Omit<PostEditModel, 'tags'>> {
  id: string;
  tags?: string[] | null;
}

/**
 * Pins or unpins a post. GZCTF's update rule (reference §3.9, the contract's PostEditModel): when
 * `isPinned` differs from the stored value only the pin changes, so the title (required) and the
 * new pin are all it needs.
 */
export function usePinPost() {
  const [update, state] = api.useEditUpdatePostMutation();
  const pin = useCallback(
    (post: { id: string; title: string; isPinned: boolean }) =>
      update({ id: post.id, postEditModel: { title: post.title, isPinned: !post.isPinned } }),
    [update],
  );
  return [pin, state] as const;
}

/**
 * Saves the editor's fields: creates the post (resolving to the new id) or updates it. Because a
 * changed pin is the only change an update applies, an edit that also moves the pin is sent as two
 * updates: the text with the stored pin, then the pin.
 */
export function useSavePost() {
  const [add, addState] = api.useEditAddPostMutation();
  const [update, updateState] = api.useEditUpdatePostMutation();
  const save = useCallback(
    async (model: Required<PostEditModel>, stored: EditablePost | null): Promise<string> => {
      if (!stored) return add({ postEditModel: model }).unwrap();
      await update({ id: stored.id, postEditModel: { ...model, isPinned: stored.isPinned } }).unwrap();
      if (model.isPinned !== stored.isPinned) {
        await update({ id: stored.id, postEditModel: { title: model.title, isPinned: model.isPinned } }).unwrap();
      }
      return stored.id;
    },
    [add, update],
  );
  return [save, { isLoading: addState.isLoading || updateState.isLoading }] as const;
}

export const { useEditDeletePostMutation } = api;
