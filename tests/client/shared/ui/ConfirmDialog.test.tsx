import { screen, waitFor } from '@testing-library/react';
import ConfirmDialog from '@/shared/ui/ConfirmDialog';
import { renderWithProviders } from '../../helpers/render';

function renderDialog(destructive: boolean) {
  const onConfirm = jest.fn();
  const onCancel = jest.fn();
  renderWithProviders(
    <ConfirmDialog
      open
      title="Delete the team?"
      message="This cannot be undone."
      confirmLabel="Delete"
      destructive={destructive}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  return { onConfirm, onCancel };
}

describe('the confirm dialog', () => {
  it('opens on Cancel when the question destroys something, so Enter keeps it', async () => {
    renderDialog(true);
    // waitFor: the focused button's ripple mounts a moment later.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus());
  });

  it('opens on the confirm button for a harmless question', async () => {
    renderDialog(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus());
  });
});
