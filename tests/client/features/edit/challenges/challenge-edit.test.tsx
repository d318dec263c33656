import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { enterText } from '../../../helpers/enterText';
import { renderApp } from '../../../helpers/render';
import { detail, GAME_ID, serveChallenges } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/challenges/pages/ChallengeEditPage'), 30_000);

describe('the challenge editor', () => {
  it('uploads a file and sets it as the attachment by its hash', async () => {
    const sent = serveChallenges([detail({ id: 11 })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const current = await screen.findByTestId('current-attachment');
    expect(within(current).getByText('No attachment.')).toBeInTheDocument();

    await userEvent.upload(screen.getByTestId('attachment-file'), new File(['x'.repeat(1536)], 'notes.txt'));
    await waitFor(() => expect(sent.attachments).toEqual([{ attachmentType: 'Local', fileHash: '1'.repeat(64) }]));
    expect(sent.uploads).toEqual([1]);
    expect(await within(current).findByRole('link', { name: 'notes.txt' })).toHaveAttribute(
      'href',
      `/assets/${'1'.repeat(64)}/notes.txt`,
    );
    expect(within(current).getByText('Uploaded file, 1.50 KiB')).toBeInTheDocument();
    expect(await screen.findByText('Attachment saved')).toBeInTheDocument();
  });

  it('saves the fields of its type, and keeps invalid ones from the server', async () => {
    const sent = serveChallenges([detail({ id: 11, hints: ['small e'] })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const score = await screen.findByRole('textbox', { name: 'Original score' });
    await userEvent.clear(score);
    await userEvent.type(score, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A whole number from 1 to 100000.')).toBeInTheDocument();
    expect(sent.updates).toEqual([]);

    await userEvent.clear(score);
    await userEvent.type(score, '600');
    await userEvent.click(screen.getByRole('button', { name: 'Add hint' }));
    await enterText(screen.getByRole('textbox', { name: 'Hint 2' }), 'Håstad');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.updates).toHaveLength(1));
    expect(sent.updates[0]).toEqual({
      id: 11,
      body: {
        title: 'Baby RSA',
        category: 'Crypto',
        content: 'Find **e**.',
        hints: ['small e', 'Håstad'],
        originalScore: 600,
        minScoreRate: 0.25,
        difficulty: 5,
        disableBloodBonus: false,
      },
    });
    expect(await screen.findByText('Challenge saved')).toBeInTheDocument();
    expect(screen.getByText('Accepted solves: 0 · worth 600 points now · never below 150')).toBeInTheDocument();
  });

  it('shows container settings and the template rule only for container types', async () => {
    serveChallenges([detail({ id: 11, type: 'DynamicContainer' })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    expect(await screen.findByRole('textbox', { name: 'Image' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Flag template' })).toBeInTheDocument();
    expect(screen.getByText(/at least 32 bits of randomness/)).toBeInTheDocument();
    expect(screen.queryByTestId('current-attachment')).not.toBeInTheDocument();
  });
});
