import { configureStore } from '@reduxjs/toolkit';
import { notificationsSlice } from '@/shared/notifications/slice';
import { doneTexts, successNotifier, titledTexts } from '@/shared/notifications/success';

function setup() {
  const store = configureStore({ reducer: { notifications: notificationsSlice.reducer } });
  const queued = () =>
    store.getState().notifications.queue.map(({ variant, title, message }) => ({ variant, title, message }));
  return { dispatch: store.dispatch, queued };
}

const api = (dispatch: ReturnType<typeof setup>['dispatch'], queryFulfilled: Promise<unknown>) => ({
  dispatch,
  queryFulfilled,
});

describe('the success notification helper', () => {
  it('names texts per key under a namespace, titled or with one "done" title', () => {
    expect(titledTexts('account')('signedOut')).toEqual({
      title: 'account:notification.signedOut.title',
      message: 'account:notification.signedOut.message',
      values: undefined,
    });
    expect(doneTexts('team')('joined', { name: 'Red' })).toEqual({
      title: 'team:notification.done',
      message: 'team:notification.joined',
      values: { name: 'Red' },
    });
  });

  it('raises a green notification at once with raise()', () => {
    const { dispatch, queued } = setup();
    successNotifier(doneTexts('admin')).raise(dispatch, 'usersCreated', { number: 3 });
    expect(queued()).toEqual([
      {
        variant: 'success',
        title: { key: 'admin:notification.done' },
        message: { key: 'admin:notification.usersCreated', values: { number: 3 } },
      },
    ]);
  });

  it('announces a call once it succeeded, with the key and values read from its argument', async () => {
    const { dispatch, queued } = setup();
    const onQueryStarted = successNotifier(doneTexts('team')).on<{ name: string }>(
      (arg) => (arg.name === 'Red' ? 'created' : 'saved'),
      (arg) => ({ name: arg.name }),
    );
    await onQueryStarted({ name: 'Red' }, api(dispatch, Promise.resolve({ data: null })));
    expect(queued()).toEqual([
      {
        variant: 'success',
        title: { key: 'team:notification.done' },
        message: { key: 'team:notification.created', values: { name: 'Red' } },
      },
    ]);
  });

  it('stays silent when the call failed (the error listener speaks then)', async () => {
    const { dispatch, queued } = setup();
    const notify = successNotifier(titledTexts('edit'));
    await notify.on('gameSaved')(undefined, api(dispatch, Promise.reject(new Error('refused'))));
    await notify.whenDone(dispatch, Promise.reject(new Error('refused')), 'gameDeleted');
    expect(queued()).toEqual([]);
  });
});
