import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createHash } from 'node:crypto';
import { enterText } from '../../helpers/enterText';
import { API, mockPlatform, renderApp } from '../../helpers/render';
import { server } from '../../msw';
import { mockCaptcha, mockSession, readJson, USER } from './support';

// Typing whole forms with user-event is slow in jsdom.
jest.setTimeout(20_000);

beforeEach(() => {
  mockPlatform();
  mockCaptcha();
});

const signIn = () => screen.findByRole('button', { name: 'Sign in' });
// MUI marks required labels with " *".
const password = () => screen.getByLabelText(/^Password/, { selector: 'input' });
const userName = () => screen.getByRole('textbox', { name: /^User name or e-mail/ });

describe('the sign-in page', () => {
  it('asks for both fields before calling the server', async () => {
    const calls: unknown[] = [];
    server.use(http.post(`${API}/account/login`, () => void calls.push(1)));
    renderApp('/account/login');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    await userEvent.click(await signIn());
    expect(await screen.findByText('Enter your user name or e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('signs in, refreshes the profile and goes back to `from`', async () => {
    const session = mockSession();
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/account/login`, async ({ request }) => {
        await readJson(request, bodies);
        session.user = { ...USER };
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { router } = renderApp('/account/login?from=%2Fposts%3Fpage%3D2');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    await enterText(userName(), ' alice ');
    await enterText(password(), 'Secret-Passw0rd');
    await userEvent.click(await signIn());

    await waitFor(() => expect(router.state.location.pathname).toBe('/posts'));
    expect(router.state.location.search).toBe('?page=2');
    expect(bodies).toEqual([{ userName: 'alice', password: 'Secret-Passw0rd', challenge: null }]);
    // The app bar follows without a reload: the invalidated profile was fetched again.
    expect(await screen.findByRole('link', { name: 'Profile: alice' })).toBeInTheDocument();
  });

  it('never follows a `from` that leaves the site', async () => {
    const session = mockSession();
    server.use(
      http.post(`${API}/account/login`, () => {
        session.user = { ...USER };
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { router } = renderApp('/account/login?from=https%3A%2F%2Fevil.example');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    await enterText(userName(), 'alice');
    await enterText(password(), 'Secret-Passw0rd');
    await userEvent.click(await signIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    // Signed in, the keyboard starts on the home page's heading, not on <body>.
    const heading = await screen.findByTestId('platform-title', {}, { timeout: 5000 });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it("shows the server's reason inline, without an error notification", async () => {
    mockSession();
    server.use(
      http.post(`${API}/account/login`, () =>
        HttpResponse.json({ title: 'Wrong user name or password', status: 401 }, { status: 401 }),
      ),
    );
    const { store, router } = renderApp('/account/login');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    await enterText(userName(), 'alice');
    await enterText(password(), 'nope');
    await userEvent.click(await signIn());
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong user name or password');
    expect(router.state.location.pathname).toBe('/account/login');
    expect(store.getState().notifications.queue).toEqual([]);
  });

  it('links to registration and recovery, and shows the password on request', async () => {
    renderApp('/account/login');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute('href', '/account/register');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/account/recovery');
    const field = password();
    expect(field).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field).toHaveAttribute('type', 'text');
  });

  it('announces a rate-limited captcha challenge as "try later"', async () => {
    mockCaptcha('HashPow');
    mockSession();
    server.use(
      http.get(`${API}/captcha/powchallenge`, () =>
        HttpResponse.json({ title: 'Too many challenges, wait a minute', status: 429 }, { status: 429 }),
      ),
    );
    renderApp('/account/login');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    expect(await screen.findByText('Please try again later', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('solves a HashPow captcha and sends "{id}:{answer}" with the form', async () => {
    mockCaptcha('HashPow');
    const session = mockSession();
    const challenges = [
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', challenge: '0123456789abcdef', difficulty: 8 },
      { id: 'bbbbbbbbbbbbbbbbbbbbbbbb', challenge: 'fedcba9876543210', difficulty: 8 },
    ];
    let minted = 0;
    const bodies: Array<{ challenge: string }> = [];
    server.use(
      http.get(`${API}/captcha/powchallenge`, () => HttpResponse.json(challenges[Math.min(minted++, 1)])),
      http.post(`${API}/account/login`, async ({ request }) => {
        bodies.push((await request.json()) as { challenge: string });
        session.user = { ...USER };
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { router } = renderApp('/account/login');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 5000 });
    expect(await screen.findByText('Browser check passed')).toBeInTheDocument();
    await enterText(userName(), 'alice');
    await enterText(password(), 'Secret-Passw0rd');
    await userEvent.click(await signIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));

    const [id, answer] = bodies[0]!.challenge.split(':');
    const sent = challenges.find((challenge) => challenge.id === id)!;
    const digest = createHash('sha256')
      .update(Buffer.from(sent.challenge + answer, 'hex'))
      .digest();
    expect(answer).toMatch(/^[0-9a-f]{16}$/);
    expect(digest[0]).toBe(0); // at least 8 leading zero bits
  });
});
