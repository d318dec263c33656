import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../helpers/render';
import { detail, GAME_ID, serveChallenges } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/challenges/pages/ChallengesPage'), 30_000);

const withFlag = detail({ id: 11, title: 'Baby RSA', flags: [{ id: 1, flag: 'flag{e=3}', attachment: null }] });
const flagless = detail({ id: 12, title: 'Cookie jar', category: 'Web' });

describe('the challenge list', () => {
  it('lists the challenges with category, type and score, and filters by category', async () => {
    serveChallenges([withFlag, flagless]);
    renderApp(`/admin/games/${GAME_ID}/challenges`);
    const list = await screen.findByRole('list', { name: 'Challenges' });
    await within(list).findByRole('link', { name: 'Baby RSA' });
    expect(within(list).getAllByTestId('challenge-row')).toHaveLength(2);
    expect(within(list).getAllByText('Static attachment')).toHaveLength(2);
    expect(within(list).getAllByText('1000 pts')).toHaveLength(2);
    expect(within(list).getAllByText('min 250 · from 1000')).toHaveLength(2);

    await userEvent.click(screen.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Web' }));
    await waitFor(() => expect(within(list).getAllByTestId('challenge-row')).toHaveLength(1));
    expect(within(list).getByRole('link', { name: 'Cookie jar' })).toBeInTheDocument();
  });

  it('enables a challenge that has a flag with an update carrying only isEnabled', async () => {
    const sent = serveChallenges([withFlag, flagless]);
    renderApp(`/admin/games/${GAME_ID}/challenges`);
    const toggle = await screen.findByRole('switch', { name: 'Enable “Baby RSA”' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(sent.updates).toEqual([{ id: 11, body: { isEnabled: true } }]));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Enable “Baby RSA”' })).toBeChecked());
    expect(await screen.findByText('Challenge enabled')).toBeInTheDocument();
  });

  it('keeps a refused switch off and says why next to it', async () => {
    const sent = serveChallenges([withFlag, flagless]);
    renderApp(`/admin/games/${GAME_ID}/challenges`);
    const toggle = await screen.findByRole('switch', { name: 'Enable “Cookie jar”' });
    await userEvent.click(toggle);
    // The row says why (the error notification, also an alert, says it too).
    const row = screen.getAllByTestId('challenge-row').find((item) => within(item).queryByText('Cookie jar'))!;
    const alert = await within(row).findByRole('alert');
    expect(alert).toHaveTextContent('Add at least one flag before enabling the challenge');
    expect(sent.updates).toEqual([{ id: 12, body: { isEnabled: true } }]);
    expect(screen.getByRole('switch', { name: 'Enable “Cookie jar”' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Enable “Cookie jar”' })).toHaveAttribute('aria-describedby', alert.id);
  });

  it('disables an enabled challenge', async () => {
    const sent = serveChallenges([{ ...withFlag, isEnabled: true }]);
    renderApp(`/admin/games/${GAME_ID}/challenges`);
    const toggle = await screen.findByRole('switch', { name: 'Enable “Baby RSA”' });
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    await waitFor(() => expect(sent.updates).toEqual([{ id: 11, body: { isEnabled: false } }]));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Enable “Baby RSA”' })).not.toBeChecked());
    expect(await screen.findByText('Challenge disabled')).toBeInTheDocument();
  });

  it('recalculates the accepted counts and deletes a challenge only after confirming', async () => {
    const sent = serveChallenges([withFlag, flagless]);
    renderApp(`/admin/games/${GAME_ID}/challenges`);
    await screen.findByRole('link', { name: 'Cookie jar' });
    await userEvent.click(screen.getByRole('button', { name: 'Recalculate accepted counts' }));
    await waitFor(() => expect(sent.recounts).toBe(1));
    expect(await screen.findByText('Accepted counts recalculated')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete “Cookie jar”' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this challenge?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.deletes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete “Cookie jar”' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this challenge?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete challenge' }));
    await waitFor(() => expect(sent.deletes).toEqual([12]));
    // The rest of the page is hidden from assistive tech until the dialog has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Cookie jar' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Baby RSA' })).toBeInTheDocument();
  });
});
