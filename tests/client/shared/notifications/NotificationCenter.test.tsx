import { act, screen, within } from '@testing-library/react';
import { notificationRaised } from '@/shared/notifications/slice';
import { NOTIFICATION_LAYOUT } from '@/shared/notifications/NotificationCenter';
import { renderWithProviders } from '../../helpers/render';

describe('notifications on screen', () => {
  it('follow spec §9: 5 visible, bottom-right, 4 s, 440 px, layer 5000', () => {
    expect(NOTIFICATION_LAYOUT).toEqual({
      maxVisible: 5,
      autoHideMs: 4000,
      width: 440,
      zIndex: 5000,
      anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
    });
  });

  it('show a queued notification with its translated title and message, then leave the queue', async () => {
    const { store } = renderWithProviders(<div />);
    act(() => {
      store.dispatch(
        notificationRaised({
          variant: 'error',
          title: { key: 'common:notification.tryLater' },
          message: { text: 'Too many requests' },
        }),
      );
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Please try again later')).toBeInTheDocument();
    expect(within(alert).getByText('Too many requests')).toBeInTheDocument();
    expect(alert.className).toMatch(/MuiAlert-filledError/);
    expect(store.getState().notifications.queue).toEqual([]);
    expect(within(alert).getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
  });

  it('show at most 5 at once', async () => {
    const { store } = renderWithProviders(<div />);
    act(() => {
      for (let index = 1; index <= 7; index += 1) {
        store.dispatch(
          notificationRaised({
            variant: 'error',
            title: { key: 'common:notification.error' },
            message: { text: `failure ${index}` },
          }),
        );
      }
    });
    await screen.findByText('failure 5');
    expect(screen.getAllByRole('alert')).toHaveLength(5);
    expect(screen.queryByText('failure 6')).not.toBeInTheDocument();
    // The oldest make room as they close; the rest follow, never more than five at a time.
    await screen.findByText('failure 7', undefined, { timeout: 4000 });
    expect(screen.getAllByRole('alert')).toHaveLength(5);
    expect(screen.queryByText('failure 1')).not.toBeInTheDocument();
  });
});
