import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin, user } from './support';

const TOTAL = 75;
const everyone = Array.from({ length: TOTAL }, (_, index) => user(index + 1));

/** Serves the user list by count/skip (and search, as the server does) and records each page asked for. */
function serveUsers() {
  const pages: Array<{ count: string | null; skip: string | null }> = [];
  const searches: Array<string | null> = [];
  const details: string[] = [];
  const saved: unknown[] = [];
  let people = everyone;
  server.use(
    http.get(`${API}/admin/users`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      pages.push({ count: params.get('count'), skip: params.get('skip') });
      const search = params.get('search');
      if (search !== null) searches.push(search);
      const count = Number(params.get('count'));
      const skip = Number(params.get('skip'));
      const matching = people.filter((item) => item.userName!.includes(search ?? ''));
      const data = matching.slice(skip, skip + count);
      return HttpResponse.json({ data, length: data.length, total: matching.length });
    }),
    http.put(`${API}/admin/users/:id`, async ({ params, request }) => {
      const body = (await request.json()) as Partial<(typeof everyone)[number]>;
      saved.push(body);
      people = people.map((item) => (item.id === params.id ? { ...item, ...body } : item));
      return new HttpResponse(null, { status: 200 });
    }),
    // One user as the server stores them now (ProfileUserInfoModel: no e-mail confirmation).
    http.get(`${API}/admin/users/:id`, ({ params }) => {
      details.push(String(params.id));
      const found = people.find((item) => item.id === params.id);
      if (!found) return HttpResponse.json({ title: 'User not found', status: 404 }, { status: 404 });
      const { id, userName, email, bio, phone, realName, stdNumber, avatar, role } = found;
      return HttpResponse.json({ userId: id, userName, email, bio, phone, realName, stdNumber, avatar, role });
    }),
  );
  return {
    pages,
    searches,
    details,
    saved,
    /** Changes a stored user behind the list's back (the user edits their own profile). */
    change: (id: string, changes: Partial<(typeof everyone)[number]>) => {
      people = people.map((item) => (item.id === id ? { ...item, ...changes } : item));
    },
    stored: (id: string) => people.find((item) => item.id === id),
  };
}

// A data grid in jsdom is slow to render and to query by role.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });

// The grid is a big module: compile it once before the clock of the first test starts.
beforeAll(() => import('@/features/admin/pages/UsersPage'), 30_000);
beforeEach(() => mockAdmin());

/** The users grid once its first page is in. */
async function findGrid(firstUser = 'user1') {
  const grid = await screen.findByRole('grid', { name: 'Users' });
  await within(grid).findByText(firstUser);
  return grid;
}

describe('the admin users table', () => {
  it('asks the server for the page the grid shows (count/skip) and offers every page', async () => {
    const { pages } = serveUsers();
    renderApp('/admin/users');
    const grid = await findGrid();
    expect(pages).toEqual([{ count: '30', skip: '0' }]);
    expect(within(grid).getByText('user1@example.com')).toBeInTheDocument();
    expect(screen.getByText(/1–30 of 75/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await userEvent.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() => expect(pages.at(-1)).toEqual({ count: '50', skip: '0' }));

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await within(grid).findByText('user51')).toBeInTheDocument();
    expect(pages.at(-1)).toEqual({ count: '50', skip: '50' });
    expect(screen.getByText(/51–75 of 75/)).toBeInTheDocument();
    expect(within(grid).queryByText('user1')).not.toBeInTheDocument();
  });

  it('searches by hint once typing pauses, and goes back to the pages when cleared', async () => {
    const { pages, searches } = serveUsers();
    renderApp('/admin/users');
    const grid = await findGrid();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'user7');
    expect(await within(grid).findByText('user75')).toBeInTheDocument();
    // One request per pause in the typing, not one per key.
    expect(searches.at(-1)).toBe('user7');
    expect(searches.length).toBeLessThan('user7'.length);
    await waitFor(() => expect(within(grid).queryByText('user1')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Search results: 7');

    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(await within(grid).findByText('user1')).toBeInTheDocument();
    expect(pages.at(-1)).toEqual({ count: '30', skip: '0' });
  });

  it('resets a password only after confirming, then shows the new one with a copy button', async () => {
    serveUsers();
    const resets: string[] = [];
    server.use(
      http.delete(`${API}/admin/users/:id/password`, ({ params }) => {
        resets.push(String(params.id));
        return HttpResponse.json('N3w-Passw0rd!xyz');
      }),
    );
    renderApp('/admin/users');
    await findGrid('user2');

    await userEvent.click(screen.getByRole('menuitem', { name: 'Reset the password of user2' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset the password?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(resets).toEqual([]);

    await userEvent.click(screen.getByRole('menuitem', { name: 'Reset the password of user2' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the password?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'New password' });
    expect(within(shown).getByRole('textbox', { name: 'New password' })).toHaveValue('N3w-Passw0rd!xyz');
    expect(within(shown).getByText('The password of user2 was reset.')).toBeInTheDocument();
    expect(resets).toEqual([user(2).id]);

    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(within(shown).getByRole('button', { name: 'Copy the password' }));
    expect(writeText).toHaveBeenCalledWith('N3w-Passw0rd!xyz');
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('deletes only after confirming, and the server refusal reaches the notification', async () => {
    serveUsers();
    const deleted: string[] = [];
    server.use(
      http.delete(`${API}/admin/users/:id`, ({ params }) => {
        deleted.push(String(params.id));
        return HttpResponse.json({ title: 'user3 is the captain of a team', status: 400 }, { status: 400 });
      }),
    );
    const { store } = renderApp('/admin/users');
    await findGrid('user3');

    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete user3' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this user?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete user3' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this user?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([user(3).id]));
    expect(await screen.findByText('user3 is the captain of a team')).toBeInTheDocument();
    expect(store.getState().notifications.queue.every((item) => item.variant === 'error')).toBe(true);
  });

  it('edits a user: validates, sends what changed, closes, and patches only that row', async () => {
    const { pages, saved } = serveUsers();
    renderApp('/admin/users');
    const grid = await findGrid('user4');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit user4' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user4' });

    const name = within(dialog).getByRole('textbox', { name: 'User name' });
    // The dialog opens on its first field (and the closing menu does not take focus back).
    expect(name).toHaveFocus();
    await userEvent.clear(name);
    await userEvent.type(name, 'ab');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('A user name has 3 to 15 characters.')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await userEvent.type(name, 'c');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Monitor' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit user4' })).not.toBeInTheDocument());
    // Null (left out) means unchanged to the server.
    expect(saved).toEqual([{ userName: 'abc', role: 'Monitor' }]);
    // The saved row shows the change at once, and the page was not asked for again.
    expect(await within(grid).findByText('abc')).toBeInTheDocument();
    expect(within(grid).queryByText('user4')).not.toBeInTheDocument();
    expect(pages).toEqual([{ count: '30', skip: '0' }]);
  });

  it('edits the user as the server has them now, not as the list row last saw them', async () => {
    const { details, change, stored } = serveUsers();
    const id = user(5).id!;
    renderApp('/admin/users');
    const grid = await findGrid('user5');
    // Meanwhile the user fixes their real name and phone on their profile page.
    change(id, { realName: 'Fixed Name', phone: '+1 555 0100' });
    expect(within(grid).getByText('Real 5')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit user5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user5' });
    expect(await within(dialog).findByRole('textbox', { name: 'Real name' })).toHaveValue('Fixed Name');
    expect(within(dialog).getByRole('textbox', { name: 'Phone' })).toHaveValue('+1 555 0100');
    expect(details).toEqual([id]);
    // The row the dialog was opened from shows the fresh values too.
    expect(await within(grid).findByText('Fixed Name')).toBeInTheDocument();

    // Only the role changes; whatever the user wrote stays.
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Monitor' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit user5' })).not.toBeInTheDocument());
    expect(stored(id)).toMatchObject({ role: 'Monitor', realName: 'Fixed Name', phone: '+1 555 0100' });
  });

  it('reads the user again on each opening, and offers a retry when that fails', async () => {
    const { details } = serveUsers();
    const id = user(6).id!;
    renderApp('/admin/users');
    await findGrid('user6');
    let failing = true;
    server.use(
      http.get(`${API}/admin/users/:id`, () =>
        failing ? HttpResponse.json({ title: 'Service unavailable', status: 503 }, { status: 503 }) : undefined,
      ),
    );
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit user6' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user6' });
    expect(
      await within(dialog).findByText('This user could not be loaded.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'User name' })).not.toBeInTheDocument();

    failing = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('textbox', { name: 'User name' })).toHaveValue('user6');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit user6' }));
    await within(await screen.findByRole('dialog', { name: 'Edit user6' })).findByRole('textbox', {
      name: 'User name',
    });
    expect(details).toEqual([id, id]);
  });

  it('creates users in a batch from pasted lines, refusing lines with problems', async () => {
    serveUsers();
    const batches: unknown[] = [];
    server.use(
      http.post(`${API}/admin/users`, async ({ request }) => {
        batches.push(await request.json());
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/admin/users');
    await findGrid('user1');
    await userEvent.click(screen.getByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users' });
    const input = within(dialog).getByRole('textbox', { name: 'Users' });

    await userEvent.click(input);
    await userEvent.paste('alice,alice@example.com,weak\nbob,not-an-email,Passw0rd');
    expect(within(dialog).getByText(/Line 1: the password needs/)).toBeInTheDocument();
    expect(within(dialog).getByText('Line 2: the e-mail address is not valid')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /^Create/ })).toBeDisabled();

    await userEvent.clear(input);
    await userEvent.paste('alice,alice@example.com,Passw0rd,Red\nbob,bob@example.com,Passw0rd,Red');
    const create = within(dialog).getByRole('button', { name: 'Create (2)' });
    expect(create).toBeEnabled();
    await userEvent.click(create);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add users' })).not.toBeInTheDocument());
    expect(batches).toEqual([
      [
        expect.objectContaining({
          userName: 'alice',
          email: 'alice@example.com',
          password: 'Passw0rd',
          teamName: 'Red',
        }),
        expect.objectContaining({ userName: 'bob', email: 'bob@example.com', password: 'Passw0rd', teamName: 'Red' }),
      ],
    ]);
  });
});
