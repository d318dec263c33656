import { setupListeners } from '@reduxjs/toolkit/query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { File as NodeFile } from 'node:buffer';
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

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input, textarea' });

async function openProfile() {
  const view = renderApp('/account/profile');
  await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 5000 });
  return view;
}

describe('the profile page', () => {
  it('sends signed-out visitors to sign in, coming back afterwards', async () => {
    mockSession();
    const { router } = renderApp('/account/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'), { timeout: 5000 });
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('/account/profile');
  });

  it('shows the saved profile and sends only a valid, changed form', async () => {
    const session = mockSession({ ...USER });
    const bodies: unknown[] = [];
    server.use(
      http.put(`${API}/account/update`, async ({ request }) => {
        await readJson(request, bodies);
        session.user = { ...USER, ...(bodies.at(-1) as object) };
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await openProfile();
    expect(field(/^User name/)).toHaveValue('alice');
    expect(field(/^Real name/)).toHaveValue('Alice Liddell');
    expect(screen.getByTestId('profile-email')).toHaveTextContent('alice@example.org');
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();

    await userEvent.clear(field(/^User name/));
    await enterText(field(/^User name/), 'al');
    await enterText(field(/^Phone number/), 'call me');
    await userEvent.click(save);
    expect(await screen.findByText('The user name must be 3 to 15 characters long.')).toBeInTheDocument();
    expect(screen.getByText('This is not a valid phone number.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await userEvent.clear(field(/^User name/));
    await enterText(field(/^User name/), 'alice2');
    await userEvent.clear(field(/^Phone number/));
    await enterText(field(/^Phone number/), '+1 555 0100');
    await userEvent.clear(field(/^Bio/));
    await enterText(field(/^Bio/), 'Pwn and coffee');
    await userEvent.click(save);

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      userName: 'alice2',
      realName: 'Alice Liddell',
      stdNumber: '2024001',
      phone: '+1 555 0100',
      bio: 'Pwn and coffee',
    });
    // The profile is fetched again, so the app bar shows the new name, and the form is clean.
    expect(await screen.findByRole('link', { name: 'Profile: alice2' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled());
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
  });

  it("shows the server's reason when an update is refused", async () => {
    mockSession({ ...USER });
    server.use(
      http.put(`${API}/account/update`, () =>
        HttpResponse.json({ title: 'The user name bob is already taken', status: 400 }, { status: 400 }),
      ),
    );
    await openProfile();
    await userEvent.clear(field(/^User name/));
    await enterText(field(/^User name/), 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The user name bob is already taken')).toBeInTheDocument();
  });

  it('checks an avatar before uploading it, then shows the new one', async () => {
    const session = mockSession({ ...USER });
    const uploads: Array<{ name: string; size: number }> = [];
    server.use(
      http.put(`${API}/account/avatar`, async ({ request }) => {
        const file = (await request.formData()).get('file') as File;
        uploads.push({ name: file.name, size: file.size });
        session.user = { ...USER, avatar: '/assets/abc123/avatar' };
        return HttpResponse.json('/assets/abc123/avatar');
      }),
    );
    await openProfile();
    const input = screen.getByTestId('avatar-input');

    await userEvent.upload(input, new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }), { applyAccept: false });
    expect(await screen.findByText(/me\.svg is not a supported image/)).toBeInTheDocument();

    const huge = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(input, huge);
    expect(await screen.findByText('The picture is 3.00 MiB; the limit is 3.00 MiB.')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);

    // Node's File: the test environment's FormData (Node's) would turn jsdom's File into a string.
    const picture = new NodeFile([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    await userEvent.upload(input, picture as unknown as File);
    await waitFor(() => expect(uploads).toEqual([{ name: 'me.png', size: 4 }]));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Avatar of alice' })).toHaveAttribute('src', '/assets/abc123/avatar'),
    );
  });

  it('changes the password in a dialog, checking the new one first', async () => {
    mockSession({ ...USER });
    const bodies: unknown[] = [];
    server.use(
      http.put(`${API}/account/changepassword`, async ({ request }) => {
        await readJson(request, bodies);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await openProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const input = (label: RegExp) => within(dialog).getByLabelText(label, { selector: 'input' });
    await enterText(input(/^Current password/), 'Old-Passw0rd');
    await enterText(input(/^New password/), 'NEWPASSWORD1');
    await enterText(input(/^Confirm password/), 'NEWPASSWORD1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('The password must contain a lower-case letter.')).toBeInTheDocument();

    await userEvent.clear(input(/^New password/));
    await userEvent.clear(input(/^Confirm password/));
    await enterText(input(/^New password/), 'New-Passw0rd');
    await enterText(input(/^Confirm password/), 'New-Passw0rd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ old: 'Old-Passw0rd', new: 'New-Passw0rd' }]);
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
  });

  it("asks for an e-mail change and shows the server's answer", async () => {
    mockSession({ ...USER });
    const bodies: unknown[] = [];
    server.use(
      http.put(`${API}/account/changeemail`, async ({ request }) => {
        await readJson(request, bodies);
        return HttpResponse.json({ title: 'Check new@example.org for a confirmation link', data: true, status: 200 });
      }),
    );
    await openProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail address' });
    expect(dialog).toHaveTextContent('Your current address is alice@example.org.');
    await enterText(within(dialog).getByLabelText(/^New e-mail address/, { selector: 'input' }), 'new@example.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send confirmation' }));
    expect(await within(dialog).findByText('Check new@example.org for a confirmation link')).toBeInTheDocument();
    expect(bodies).toEqual([{ newMail: 'new@example.org' }]);
  });

  it('signs out and the app bar offers sign-in again', async () => {
    const session = mockSession({ ...USER });
    server.use(
      http.post(`${API}/account/logout`, () => {
        session.user = null;
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { router } = await openProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findAllByRole('link', { name: 'Sign in' })).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: /^Profile/ })).not.toBeInTheDocument();
  });

  it('stays on the profile, with what was typed, when the session re-check on focus fails', async () => {
    const session = mockSession({ ...USER });
    const { store, router } = await openProfile();
    const stop = setupListeners(store.dispatch);
    try {
      await enterText(field(/^Phone number/), '+1 555');
      // The tab comes back while the network is still down.
      server.use(
        http.get(`${API}/account/profile`, () => {
          session.probes += 1;
          return HttpResponse.error();
        }),
      );
      const before = session.probes;
      window.dispatchEvent(new Event('focus'));
      await waitFor(() => expect(session.probes).toBe(before + 1));
      await waitFor(() =>
        expect(
          Object.values(store.getState().api.queries).find((entry) => entry?.endpointName === 'accountSession')?.status,
        ).toBe('rejected'),
      );
      expect(router.state.location.pathname).toBe('/account/profile');
      expect(field(/^Phone number/)).toHaveValue('+1 555');
    } finally {
      stop();
    }
  });
});
