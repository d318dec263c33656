import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { enterText } from '../../../helpers/enterText';
import { renderApp } from '../../../helpers/render';
import { detail, GAME_ID, serveChallenges } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/challenges/pages/FlagsPage'), 30_000);

describe('the flags page', () => {
  it('adds static flags one per line in one call', async () => {
    const sent = serveChallenges([detail({ id: 11 })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11/flags`);
    await screen.findByRole('heading', { name: 'Flags of “Baby RSA”' });
    expect(screen.getByText(/No flags yet/)).toBeInTheDocument();

    // Nothing typed: the field says so and nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Add flags' }));
    expect(await screen.findByText('Enter a flag.')).toBeInTheDocument();
    expect(sent.flagBodies).toEqual([]);

    await enterText(screen.getByRole('textbox', { name: 'New flags' }), ' flag{one} \n\nflag{two}');
    await userEvent.click(screen.getByRole('button', { name: 'Add flags' }));
    await waitFor(() => expect(sent.flagBodies).toEqual([[{ flag: 'flag{one}' }, { flag: 'flag{two}' }]]));
    const list = await screen.findByRole('list', { name: 'Flags' });
    await within(list).findByText('flag{two}');
    expect(within(list).getAllByTestId('flag-row')).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: 'New flags' })).toHaveValue('');
    expect(await screen.findByText('Flags added')).toBeInTheDocument();
  });

  it('deletes a flag only after confirming', async () => {
    const sent = serveChallenges([
      detail({
        id: 11,
        flags: [
          { id: 1, flag: 'flag{keep}', attachment: null },
          { id: 2, flag: 'flag{drop}', attachment: null },
        ],
      }),
    ]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11/flags`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete flag flag{drop}' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this flag?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.flagDeletes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete flag flag{drop}' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this flag?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete flag' }));
    await waitFor(() => expect(sent.flagDeletes).toEqual([2]));
    await waitFor(() => expect(screen.queryByText('flag{drop}')).not.toBeInTheDocument());
    expect(screen.getByText('flag{keep}')).toBeInTheDocument();
  });

  it('uploads dynamic attachment files, then adds one flag per file with its hash', async () => {
    const sent = serveChallenges([detail({ id: 11, type: 'DynamicAttachment' })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11/flags`);
    await screen.findByRole('heading', { name: 'Flags of “Baby RSA”' });
    const files = [new File(['a'], 'team-a.zip'), new File(['bb'], 'team-b.zip')];
    await userEvent.upload(screen.getByTestId('batch-files'), files);
    await enterText(await screen.findByRole('textbox', { name: 'Flag for team-a.zip' }), 'flag{a}');
    await userEvent.click(screen.getByRole('button', { name: 'Upload and add pairs (2)' }));
    // A pair without its flag stops the batch before anything is uploaded.
    expect(await screen.findByText('Enter a flag.')).toBeInTheDocument();
    expect(sent.uploads).toEqual([]);

    await enterText(screen.getByRole('textbox', { name: 'Flag for team-b.zip' }), 'flag{b}');
    await userEvent.click(screen.getByRole('button', { name: 'Upload and add pairs (2)' }));
    await waitFor(() =>
      expect(sent.flagBodies).toEqual([
        [
          { flag: 'flag{a}', attachmentType: 'Local', fileHash: '1'.repeat(64) },
          { flag: 'flag{b}', attachmentType: 'Local', fileHash: '2'.repeat(64) },
        ],
      ]),
    );
    expect(sent.uploads).toEqual([2]);
    await waitFor(() => expect(screen.queryAllByTestId('pending-pair')).toHaveLength(0));
  });

  it('explains that dynamic container flags come from the template', async () => {
    serveChallenges([detail({ id: 11, type: 'DynamicContainer', flagTemplate: 'flag{[TEAM_HASH]}' })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11/flags`);
    expect(await screen.findByText(/every team's container gets one made from the flag template/)).toBeInTheDocument();
    expect(screen.getByText('flag{[TEAM_HASH]}')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'New flags' })).not.toBeInTheDocument();
  });
});
