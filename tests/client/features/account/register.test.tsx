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

async function openRegister() {
  const view = renderApp('/account/register');
  await screen.findByRole('heading', { name: 'Create an account' }, { timeout: 5000 });
  return view;
}

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

interface Fields {
  userName?: string;
  email?: string;
  password?: string;
  confirm?: string;
}

async function fill({
  userName = 'alice',
  email = 'alice@example.org',
  password = 'Secret-Passw0rd',
  confirm = password,
}: Fields = {}) {
  if (userName) await enterText(field(/^User name/), userName);
  if (email) await enterText(field(/^E-mail/), email);
  if (password) await enterText(field(/^Password/), password);
  if (confirm) await enterText(field(/^Confirm password/), confirm);
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Register' }));

function answerRegister(status: 'LoggedIn' | 'AdminConfirmationRequired' | 'EmailConfirmationRequired') {
  const bodies: unknown[] = [];
  const session = mockSession();
  server.use(
    http.post(`${API}/account/register`, async ({ request }) => {
      await readJson(request, bodies);
      if (status === 'LoggedIn') session.user = { ...USER };
      return HttpResponse.json({ title: 'Registered', data: status, status: 200 });
    }),
  );
  return bodies;
}

describe('the registration page', () => {
  it('explains every rule it checks before sending anything', async () => {
    const bodies = answerRegister('LoggedIn');
    await openRegister();
    await fill({ userName: 'al', email: 'not-an-address', password: 'abcdef', confirm: 'abcdeg' });
    await submit();
    expect(await screen.findByText('The user name must be 3 to 15 characters long.')).toBeInTheDocument();
    expect(screen.getByText('This is not a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('The password must contain a digit.')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
  });

  it('shows a strength meter that ticks off the password rules', async () => {
    await openRegister();
    const meter = screen.getByTestId('password-strength');
    expect(within(meter).getByText('Strength: none')).toBeInTheDocument();
    await userEvent.type(field(/^Password/), 'abc');
    expect(within(meter).getByText('Strength: weak')).toBeInTheDocument();
    expect(within(meter).getByText(/A lower-case letter/)).toHaveTextContent('(done)');
    expect(within(meter).getByText(/An upper-case letter/)).toHaveTextContent('(missing)');
    await userEvent.type(field(/^Password/), 'DEF12!?xyz');
    expect(within(meter).getByText('Strength: strong')).toBeInTheDocument();
  });

  it('signs the new user in and goes home when the server says LoggedIn', async () => {
    const bodies = answerRegister('LoggedIn');
    const { router } = await openRegister();
    await fill();
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(bodies).toEqual([
      { userName: 'alice', email: 'alice@example.org', password: 'Secret-Passw0rd', challenge: null },
    ]);
    expect(await screen.findByRole('link', { name: 'Profile: alice' })).toBeInTheDocument();
  });

  it('asks the user to open the mailed link when e-mail confirmation is required', async () => {
    answerRegister('EmailConfirmationRequired');
    const { router } = await openRegister();
    await fill();
    await submit();
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('We sent a confirmation link to alice@example.org.');
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute('href', '/account/login');
    expect(router.state.location.pathname).toBe('/account/register');
  });

  it('says an admin must activate the account when that is the policy', async () => {
    answerRegister('AdminConfirmationRequired');
    await openRegister();
    await fill();
    await submit();
    expect(await screen.findByRole('heading', { name: 'Waiting for approval' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('An administrator must activate your account');
  });

  it("shows the server's reason when it refuses", async () => {
    mockSession();
    server.use(
      http.post(`${API}/account/register`, () =>
        HttpResponse.json({ title: 'The user name alice is already taken', status: 400 }, { status: 400 }),
      ),
    );
    const { store } = await openRegister();
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('The user name alice is already taken');
    expect(store.getState().notifications.queue).toEqual([]);
  });
});
