import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin, user } from './support';

// The shared admin grid pattern (useServerGrid + ServerGrid), seen through the users page: paging,
// debounced search and sorting all go to the server, one request per settled change.

const everyone = Array.from({ length: 75 }, (_, index) => user(index + 1));

type Asked = Record<'count' | 'skip' | 'search' | 'sort' | 'order', string | null>;

/** Serves users by count/skip/search/sort/order as the server does and records every request. */
function serveUsers() {
  const asked: Asked[] = [];
  server.use(
    http.get(`${API}/admin/users`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      const entry: Asked = { count: null, skip: null, search: null, sort: null, order: null };
      for (const key of Object.keys(entry) as Array<keyof Asked>) entry[key] = params.get(key);
      asked.push(entry);
      const matching = everyone.filter((item) => item.userName!.includes(entry.search ?? ''));
      if (entry.sort === 'userName') {
        matching.sort((a, b) => a.userName!.localeCompare(b.userName!));
        if (entry.order === 'desc') matching.reverse();
      }
      const skip = Number(entry.skip);
      const data = matching.slice(skip, skip + Number(entry.count));
      return HttpResponse.json({ data, length: data.length, total: matching.length });
    }),
  );
  return asked;
}

const ask = (overrides: Partial<Asked>): Asked => ({
  count: '30',
  skip: '0',
  search: null,
  sort: null,
  order: null,
  ...overrides,
});

// A data grid in jsdom is slow to render and to query by role, the more so on a busy machine.
jest.setTimeout(90_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/admin/pages/UsersPage'), 30_000);
beforeEach(() => mockAdmin());

async function openSecondPage() {
  const grid = await screen.findByRole('grid', { name: 'Users' });
  await within(grid).findByText('user1');
  await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
  await within(grid).findByText('user31');
  return grid;
}

describe('the admin grid pattern', () => {
  it('sends a search once typing pauses, from the first page, with no unfiltered request in between', async () => {
    const asked = serveUsers();
    renderApp('/admin/users');
    const grid = await openSecondPage();
    expect(asked).toEqual([ask({}), ask({ skip: '30' })]);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'user7');
    await waitFor(() => expect(asked.at(-1)).toEqual(ask({ search: 'user7' })));
    expect(await within(grid).findByText('user75')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Search results: 7');
    // Every request since the first key carries the search and starts at the first page: none goes
    // out for the old list on the new page. Keys typed within a pause share one request (a slow
    // machine may pause mid-word, so fewer requests than keys rather than exactly one).
    const typed = asked.slice(2);
    expect(typed.every((entry) => entry.search !== null && entry.skip === '0')).toBe(true);
    expect(typed.length).toBeLessThan('user7'.length);
  });

  it('sorts on the server: ascending, descending, then back to the default order, each from page one', async () => {
    const asked = serveUsers();
    renderApp('/admin/users');
    const grid = await openSecondPage();
    const header = within(grid).getByRole('columnheader', { name: /User name/ });

    await userEvent.click(header);
    await waitFor(() => expect(asked.at(-1)).toEqual(ask({ sort: 'userName', order: 'asc' })));
    expect(header).toHaveAttribute('aria-sort', 'ascending');

    await userEvent.click(header);
    await waitFor(() => expect(asked.at(-1)).toEqual(ask({ sort: 'userName', order: 'desc' })));
    expect(await within(grid).findByText('user9')).toBeInTheDocument();
    expect(header).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(header);
    await waitFor(() => expect(asked.at(-1)).toEqual(ask({})));
    // One request per click: the page reset rides on the sort's own request, and clearing the sort
    // does not bring back the page chosen before sorting.
    expect(asked).toHaveLength(5);
  });

  it('offers sorting only on the columns the server sorts by', async () => {
    serveUsers();
    renderApp('/admin/users');
    const grid = await screen.findByRole('grid', { name: 'Users' });
    await within(grid).findByText('user1');
    const sortable = (name: RegExp) =>
      within(grid).getByRole('columnheader', { name }).classList.contains('MuiDataGrid-columnHeader--sortable');
    for (const name of [/User name/, /E-mail/, /Role/, /Last visit/, /Registered/]) expect(sortable(name)).toBe(true);
    for (const name of [/Name \/ Student/, /Confirmed/, /Actions/]) expect(sortable(name)).toBe(false);
  });
});
