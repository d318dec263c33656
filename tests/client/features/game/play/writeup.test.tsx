import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { challenge, details, GAME_ID, gameInfo, mockPlayer } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/ChallengesPage'), 30_000);

describe('the writeup panel', () => {
  test('shows the note and deadline, refuses a non-PDF, and uploads a PDF as multipart', async () => {
    mockPlayer(gameInfo({ status: 'Accepted', teamName: 'Red', writeupRequired: true }));
    const state = { submitted: false, uploads: [] as string[][] };
    server.use(
      http.get(`${API}/game/${GAME_ID}/details`, () =>
        HttpResponse.json({ ...details([challenge({ id: 1, title: 'Warmup' })]), writeupRequired: true }),
      ),
      http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json([])),
      http.get(`${API}/game/${GAME_ID}/writeup`, () =>
        HttpResponse.json({
          submitted: state.submitted,
          name: state.submitted ? 'Writeup-7-1.pdf' : '#',
          fileSize: state.submitted ? 2048 : 0,
          note: 'One PDF per team, please.',
        }),
      ),
      http.post(`${API}/game/${GAME_ID}/writeup`, async ({ request }) => {
        expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
        // jsdom's File loses its name through Node's FormData; the field is what the server reads.
        state.uploads.push([...(await request.formData()).keys()]);
        state.submitted = true;
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { container } = renderApp(`/games/${GAME_ID}/challenges`);
    const panel = await screen.findByRole('region', { name: 'Writeup' });
    expect(await within(panel).findByText('One PDF per team, please.')).toBeInTheDocument();
    expect(within(panel).getByText(/^Due by /)).toBeInTheDocument();
    expect(within(panel).getByText('Your team has not uploaded a writeup yet.')).toBeInTheDocument();

    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await within(panel).findByText('Choose a PDF file of at most 20 MiB.')).toBeInTheDocument();
    expect(state.uploads).toHaveLength(0);

    await userEvent.upload(input, new File(['%PDF-1.4'], 'ours.pdf', { type: 'application/pdf' }));
    expect(await within(panel).findByText('Writeup uploaded.')).toBeInTheDocument();
    expect(state.uploads).toEqual([['file']]);
    expect(await within(panel).findByText('Uploaded: Writeup-7-1.pdf (2.00 KiB)')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Replace the PDF' })).toBeInTheDocument();
  });

  test('after the end, still takes the writeup, the deadline left to the server', async () => {
    const now = Date.now();
    mockPlayer(
      gameInfo({ status: 'Accepted', teamName: 'Red', writeupRequired: true, start: now - 9_000_000, end: now - 1000 }),
    );
    const state = { submitted: false, detailCalls: 0 };
    server.use(
      // Refused after the end (10002): the page must not need them.
      http.get(`${API}/game/${GAME_ID}/details`, () => {
        state.detailCalls += 1;
        return HttpResponse.json({ title: 'The game has ended', status: 10002 }, { status: 400 });
      }),
      http.get(`${API}/game/${GAME_ID}/writeup`, () =>
        HttpResponse.json({
          submitted: state.submitted,
          name: state.submitted ? 'Writeup-7-1.pdf' : '#',
          fileSize: state.submitted ? 2048 : 0,
          note: 'One PDF per team, please.',
        }),
      ),
      http.post(`${API}/game/${GAME_ID}/writeup`, () => {
        state.submitted = true;
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { container } = renderApp(`/games/${GAME_ID}/challenges`);
    expect(await screen.findByRole('heading', { name: 'The game has ended' })).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Writeup' });
    expect(await within(panel).findByText('Your team has not uploaded a writeup yet.')).toBeInTheDocument();
    expect(within(panel).queryByText(/^Due by /)).not.toBeInTheDocument();

    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['%PDF-1.4'], 'ours.pdf', { type: 'application/pdf' }));
    expect(await within(panel).findByText('Writeup uploaded.')).toBeInTheDocument();
    expect(await within(panel).findByText('Uploaded: Writeup-7-1.pdf (2.00 KiB)')).toBeInTheDocument();
    expect(state.detailCalls).toBe(0);
  });

  test('says when the writeup status cannot be read instead of claiming none was uploaded', async () => {
    mockPlayer(gameInfo({ status: 'Accepted', teamName: 'Red', writeupRequired: true }));
    const state = { failing: true };
    server.use(
      http.get(`${API}/game/${GAME_ID}/details`, () =>
        HttpResponse.json({ ...details([challenge({ id: 1, title: 'Warmup' })]), writeupRequired: true }),
      ),
      http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json([])),
      http.get(`${API}/game/${GAME_ID}/writeup`, async () => {
        await delay(200);
        return state.failing
          ? HttpResponse.json({ title: 'The storage is unavailable', status: 503 }, { status: 503 })
          : HttpResponse.json({ submitted: true, name: 'Writeup-7-1.pdf', fileSize: 2048, note: '' });
      }),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    const panel = await screen.findByRole('region', { name: 'Writeup' });
    expect(within(panel).getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(within(panel).queryByText('Your team has not uploaded a writeup yet.')).not.toBeInTheDocument();

    // Failed, after the client's retries.
    expect(await within(panel).findByText('The storage is unavailable')).toBeInTheDocument();
    expect(within(panel).queryByText('Your team has not uploaded a writeup yet.')).not.toBeInTheDocument();

    state.failing = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByText('Uploaded: Writeup-7-1.pdf (2.00 KiB)')).toBeInTheDocument();
    expect(within(panel).queryByText('The storage is unavailable')).not.toBeInTheDocument();
  });
});
