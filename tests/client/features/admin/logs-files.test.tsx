import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { OPERATION_COLOR_VALUES } from '@/shared/lib/operationResult';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { mockAdmin } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(
  () => Promise.all([import('@/features/admin/pages/LogsPage'), import('@/features/admin/pages/FilesPage')]),
  30_000,
);
beforeEach(() => mockAdmin());

const HASH = 'a'.repeat(64);

describe('the admin logs', () => {
  it('filters by level, pages by 50 and colours the status by its result', async () => {
    const asked: string[] = [];
    server.use(
      http.get(`${API}/admin/logs`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(`${params.get('level')}/${params.get('count')}/${params.get('skip')}`);
        const level = params.get('level') === 'All' ? 'Information' : params.get('level');
        return HttpResponse.json([
          {
            time: 1_700_000_000_000,
            name: 'root',
            level,
            ip: '10.1.2.3',
            msg: 'User alice updated',
            status: 'Success',
          },
          {
            time: 1_700_000_000_000,
            name: 'Anonymous',
            level,
            ip: '10.1.2.4',
            msg: 'Sign-in refused',
            status: 'Denied',
          },
        ]);
      }),
    );
    renderApp('/admin/logs');
    const grid = await screen.findByRole('grid', { name: 'Logs' });
    await within(grid).findByText('User alice updated');
    expect(asked).toEqual(['All/50/0']);
    const success = within(grid).getByText('Success').closest('.MuiChip-root') as HTMLElement;
    expect(getComputedStyle(success).color).toBe(hexToRgb(OPERATION_COLOR_VALUES.green));
    const denied = within(grid).getByText('Denied').closest('.MuiChip-root') as HTMLElement;
    expect(getComputedStyle(denied).color).toBe(hexToRgb(OPERATION_COLOR_VALUES.alert));
    // Fewer than 50 lines came back: there is no next page.
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Warning' }));
    await waitFor(() => expect(asked.at(-1)).toBe('Warning/50/0'));
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(asked).toHaveLength(3));
  });
});

describe('the admin files', () => {
  it('lists files with a link, the size on demand and a confirmed delete; uploads as multipart `files`', async () => {
    let files = [{ hash: HASH, name: 'handout.zip' }];
    const deleted: string[] = [];
    const uploaded: string[][] = [];
    let heads = 0;
    server.use(
      http.get(`${API}/admin/files`, () =>
        HttpResponse.json({ data: files, length: files.length, total: files.length }),
      ),
      http.head(`http://localhost/assets/${HASH}/handout.zip`, () => {
        heads += 1;
        return new HttpResponse(null, { status: 200, headers: { 'Content-Length': '1536' } });
      }),
      http.delete(`${API}/assets/:hash`, ({ params }) => {
        deleted.push(String(params.hash));
        files = [];
        return new HttpResponse(null, { status: 200 });
      }),
      http.post(`${API}/assets`, async ({ request }) => {
        expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
        const form = await request.formData();
        // jsdom's File does not survive Node's FormData (names are lost); the browser test checks them.
        uploaded.push(form.getAll('files').map(() => 'a file'));
        return HttpResponse.json([{ hash: 'b'.repeat(64), name: 'new.txt' }]);
      }),
    );
    renderApp('/admin/files');
    const grid = await screen.findByRole('grid', { name: 'Files' });
    const link = await within(grid).findByRole('link', { name: 'handout.zip' });
    expect(link).toHaveAttribute('href', `/assets/${HASH}/handout.zip`);
    expect(within(grid).getByText(HASH)).toBeInTheDocument();
    expect(heads).toBe(0);
    await userEvent.click(within(grid).getByRole('button', { name: 'Show the size of handout.zip' }));
    expect(await within(grid).findByText('1.50 KiB')).toBeInTheDocument();
    expect(heads).toBe(1);

    await userEvent.upload(screen.getByTestId('files-input'), [
      new File(['a'], 'new.txt', { type: 'text/plain' }),
      new File(['b'], 'other.txt', { type: 'text/plain' }),
    ]);
    await waitFor(() => expect(uploaded).toEqual([['a file', 'a file']]));
    expect(await screen.findByText('Files uploaded: 1.')).toBeInTheDocument();

    await userEvent.click(within(grid).getByRole('menuitem', { name: 'Delete handout.zip' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);
    await userEvent.click(within(grid).getByRole('menuitem', { name: 'Delete handout.zip' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([HASH]));
    await waitFor(() => expect(within(grid).queryByText('handout.zip')).not.toBeInTheDocument());
  });
});

describe('a page of 50 files', () => {
  it('costs one list request, not one more per row, and a size costs one request when asked for', async () => {
    const files = Array.from({ length: 50 }, (_, index) => ({
      hash: index.toString(16).padStart(64, '0'),
      name: `file-${index}.bin`,
    }));
    const requests: string[] = [];
    server.use(
      http.get(`${API}/admin/files`, ({ request }) => {
        requests.push(`GET ${new URL(request.url).pathname}`);
        return HttpResponse.json({ data: files, length: files.length, total: files.length });
      }),
      http.head('http://localhost/assets/:hash/:name', ({ params }) => {
        requests.push(`HEAD ${String(params.name)}`);
        return new HttpResponse(null, { status: 200, headers: { 'Content-Length': '2048' } });
      }),
    );
    renderApp('/admin/files');
    const grid = await screen.findByRole('grid', { name: 'Files' });
    await within(grid).findByRole('link', { name: 'file-0.bin' });
    // Give any per-row request time to go out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual(['GET /api/admin/files']);

    await userEvent.click(within(grid).getByRole('button', { name: 'Show the size of file-1.bin' }));
    expect(await within(grid).findByText('2.00 KiB')).toBeInTheDocument();
    expect(requests).toEqual(['GET /api/admin/files', 'HEAD file-1.bin']);
    // The other rows still offer the button.
    expect(within(grid).getByRole('button', { name: 'Show the size of file-0.bin' })).toBeInTheDocument();
  });
});

function hexToRgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
