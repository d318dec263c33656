import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
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

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

const VERIFY_LINK = '/account/verify?token=dG9rZW4%3D&email=YWxpY2VAZXhhbXBsZS5vcmc%3D';

/** Verification signs alice in; the bodies it received are collected. */
function serveVerify(session: ReturnType<typeof mockSession>) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${API}/account/verify`, async ({ request }) => {
      await readJson(request, bodies);
      session.user = { ...USER };
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return bodies;
}

describe('the pages behind mailed links', () => {
  it('verifies the address once with the link values, then shows the user signed in', async () => {
    const session = mockSession();
    const bodies = serveVerify(session);
    renderApp(VERIFY_LINK);
    expect(
      await screen.findByText('Your e-mail address is confirmed and you are signed in.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ token: 'dG9rZW4=', email: 'YWxpY2VAZXhhbXBsZS5vcmc=' }]);
    expect(await screen.findByRole('link', { name: 'Profile: alice' })).toBeInTheDocument();
  });

  it('asks someone already signed in before a link signs them in as another account', async () => {
    const session = mockSession({ ...USER, userName: 'bob', userId: 'u-bob' });
    const bodies = serveVerify(session);
    renderApp(VERIFY_LINK);
    expect(
      await screen.findByText(
        'You are signed in as bob. Confirming this address signs you in to the account it belongs to instead.',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and switch accounts' }));
    expect(
      await screen.findByText('Your e-mail address is confirmed and you are signed in.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ token: 'dG9rZW4=', email: 'YWxpY2VAZXhhbXBsZS5vcmc=' }]);
  });

  it('shows why a verification link failed', async () => {
    mockSession();
    server.use(
      http.post(`${API}/account/verify`, () =>
        HttpResponse.json({ title: 'The link is invalid or has expired', status: 401 }, { status: 401 }),
      ),
    );
    const { store } = renderApp('/account/verify?token=x&email=eA%3D%3D');
    expect(await screen.findByText('The link is invalid or has expired', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(store.getState().notifications.queue).toEqual([]);
  });

  it.each([
    ['verification', VERIFY_LINK, 'verify', null],
    ['mail-change confirmation', '/account/confirm?token=abc&email=bmV3QGV4YW1wbGUub3Jn', 'mailchangeconfirm', USER],
  ] as const)(
    'announces a rate-limited %s as "try later", and shows the outcome on the page too',
    async (_name, link, endpoint, signedIn) => {
      mockSession(signedIn ? { ...signedIn } : null);
      server.use(
        http.post(`${API}/account/${endpoint}`, () =>
          HttpResponse.json({ title: 'Too many requests, wait a minute', status: 429 }, { status: 429 }),
        ),
      );
      renderApp(link);
      const page = await screen.findByRole('main');
      expect(
        await within(page).findByText('Too many requests, wait a minute', {}, { timeout: 5000 }),
      ).toBeInTheDocument();
      // The notification (outside the page) is titled as spec §8 asks for a 429.
      expect(await screen.findByText('Please try again later')).toBeInTheDocument();
    },
  );

  it('says so when a link lost its query', async () => {
    mockSession();
    renderApp('/account/verify?token=only');
    expect(await screen.findByText(/This link is incomplete/, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('asks for sign-in before confirming a new address, and comes back to the link', async () => {
    mockSession();
    renderApp('/account/confirm?token=abc&email=bmV3QGV4YW1wbGUub3Jn');
    // Signed out is an errored probe, which RTK Query repeats when the page subscribes: wait for calm.
    await waitFor(
      () => {
        expect(screen.getByText(/Sign in to the account that asked for this change/)).toBeInTheDocument();
        expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
          'href',
          `/account/login?from=${encodeURIComponent('/account/confirm?token=abc&email=bmV3QGV4YW1wbGUub3Jn')}`,
        );
      },
      { timeout: 5000 },
    );
  });

  it('confirms the new address for a signed-in user', async () => {
    mockSession({ ...USER });
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/account/mailchangeconfirm`, async ({ request }) => {
        await readJson(request, bodies);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/account/confirm?token=abc&email=bmV3QGV4YW1wbGUub3Jn');
    expect(await screen.findByText('Your e-mail address has been changed.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(bodies).toEqual([{ token: 'abc', email: 'bmV3QGV4YW1wbGUub3Jn' }]);
  });

  it('resets the password with the link values and the new password', async () => {
    mockSession();
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/account/passwordreset`, async ({ request }) => {
        await readJson(request, bodies);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/account/reset?token=cmVzZXQ%3D&email=YWxpY2VAZXhhbXBsZS5vcmc%3D');
    await screen.findByRole('heading', { name: 'Choose a new password' }, { timeout: 5000 });
    await enterText(field(/^New password/), 'weak');
    await enterText(field(/^Confirm password/), 'weak');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The password must be at least 6 characters long.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await userEvent.clear(field(/^New password/));
    await userEvent.clear(field(/^Confirm password/));
    await enterText(field(/^New password/), 'Better-Passw0rd');
    await enterText(field(/^Confirm password/), 'Better-Passw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Your password has been changed. Sign in with the new one.')).toBeInTheDocument();
    expect(bodies).toEqual([{ password: 'Better-Passw0rd', email: 'YWxpY2VAZXhhbXBsZS5vcmc=', rToken: 'cmVzZXQ=' }]);
  });

  it('requests a recovery mail and shows what the server answered', async () => {
    mockSession();
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/account/recovery`, async ({ request }) => {
        await readJson(request, bodies);
        return HttpResponse.json({ title: 'A reset link has been sent.', status: 200 });
      }),
    );
    renderApp('/account/recovery');
    await screen.findByRole('heading', { name: 'Reset your password' }, { timeout: 5000 });
    await enterText(field(/^E-mail/), 'alice@example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('A reset link has been sent.'));
    expect(bodies).toEqual([{ email: 'alice@example.org', challenge: null }]);
  });
});
