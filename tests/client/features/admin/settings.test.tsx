import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ConfigEditModel } from '@/features/admin/api';
import { enterText } from '../../helpers/enterText';
import { server } from '../../msw';
import { API, renderApp, TEST_CONFIG } from '../../helpers/render';
import { mockAdmin } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/admin/pages/SettingsPage'), 30_000);

const CONFIG: ConfigEditModel = {
  accountPolicy: {
    allowRegister: true,
    activeOnRegister: true,
    useCaptcha: false,
    emailConfirmationRequired: false,
    emailDomainList: 'example.edu',
  },
  globalConfig: {
    title: 'Test',
    slogan: 'Tested live',
    description: null,
    footerInfo: null,
    customTheme: null,
    apiEncryption: false,
    logoHash: null,
    faviconHash: null,
  },
  containerPolicy: {
    autoDestroyOnLimitReached: false,
    maxExerciseContainerCountPerUser: 1,
    defaultLifetime: 120,
    extensionDuration: 120,
    renewalWindow: 10,
  },
};

/** A server that keeps what is saved, and answers the client config from it. */
function serveConfig() {
  let stored = structuredClone(CONFIG);
  const saved: ConfigEditModel[] = [];
  let clientConfigCalls = 0;
  server.use(
    http.get(`${API}/admin/config`, () => HttpResponse.json(stored)),
    http.put(`${API}/admin/config`, async ({ request }) => {
      const body = (await request.json()) as ConfigEditModel;
      saved.push(body);
      stored = {
        accountPolicy: body.accountPolicy ?? stored.accountPolicy,
        globalConfig: body.globalConfig ? { ...stored.globalConfig!, ...body.globalConfig } : stored.globalConfig,
        containerPolicy: body.containerPolicy ?? stored.containerPolicy,
      };
      return new HttpResponse(null, { status: 200 });
    }),
    http.get(`${API}/config`, () => {
      clientConfigCalls += 1;
      return HttpResponse.json({ ...TEST_CONFIG, title: stored.globalConfig!.title });
    }),
  );
  return { saved, clientConfigCalls: () => clientConfigCalls };
}

const section = (name: string) => screen.getByRole('region', { name });

beforeEach(() => mockAdmin());

describe('the admin settings', () => {
  it('refuses an invalid theme colour and sends nothing', async () => {
    const { saved } = serveConfig();
    renderApp('/admin/settings');
    await screen.findByRole('region', { name: 'Platform' });
    const platform = section('Platform');
    const colour = within(platform).getByRole('textbox', { name: 'Theme colour' });
    await userEvent.type(colour, '#12345');
    expect(within(platform).getByText(/six hex digits/)).toBeInTheDocument();
    await userEvent.click(within(platform).getByRole('button', { name: 'Save' }));
    expect(saved).toEqual([]);

    await userEvent.type(colour, 'g');
    await userEvent.click(within(platform).getByRole('button', { name: 'Save' }));
    expect(within(platform).getByText(/six hex digits/)).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('refuses container numbers out of the contract ranges', async () => {
    const { saved } = serveConfig();
    renderApp('/admin/settings');
    await screen.findByRole('region', { name: 'Containers' });
    const containers = section('Containers');
    const lifetime = within(containers).getByRole('spinbutton', { name: 'Lifetime' });
    const window = within(containers).getByRole('spinbutton', { name: 'Renewal window' });

    await userEvent.clear(lifetime);
    await userEvent.type(lifetime, '0');
    expect(within(containers).getByText('A whole number from 1 to 7200.')).toBeInTheDocument();
    await userEvent.click(within(containers).getByRole('button', { name: 'Save' }));
    await userEvent.clear(lifetime);
    await userEvent.type(lifetime, '7201');
    await userEvent.click(within(containers).getByRole('button', { name: 'Save' }));
    await userEvent.clear(lifetime);
    await userEvent.type(lifetime, '240');
    await userEvent.clear(window);
    await userEvent.type(window, '361');
    expect(within(containers).getByText('A whole number from 1 to 360.')).toBeInTheDocument();
    await userEvent.click(within(containers).getByRole('button', { name: 'Save' }));
    expect(saved).toEqual([]);

    await userEvent.clear(window);
    await userEvent.type(window, '30');
    await userEvent.click(within(containers).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    // Only this section is sent.
    expect(saved[0]).toEqual({
      containerPolicy: { ...CONFIG.containerPolicy, defaultLifetime: 240, renewalWindow: 30 },
    });
  });

  it('saves the platform section, and the app bar shows the new title without a reload', async () => {
    const { saved, clientConfigCalls } = serveConfig();
    renderApp('/admin/settings');
    await screen.findByRole('region', { name: 'Platform' });
    await waitFor(() => expect(screen.getByTestId('app-title')).toHaveTextContent('Test::CTF'));
    const before = clientConfigCalls();
    const platform = section('Platform');
    const title = within(platform).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await enterText(title, 'Hack Week');
    await enterText(within(platform).getByRole('textbox', { name: 'Theme colour' }), '#7950F2');
    await enterText(within(platform).getByRole('textbox', { name: 'Footer (markdown)' }), '**Run** by <b>us</b>');
    const preview = within(platform).getByTestId('footer-preview');
    expect(within(preview).getByText('Run').tagName).toBe('STRONG');
    await userEvent.click(within(platform).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      globalConfig: {
        title: 'Hack Week',
        slogan: 'Tested live',
        description: null,
        footerInfo: '**Run** by <b>us</b>',
        customTheme: '#7950f2',
        apiEncryption: false,
      },
    });
    await waitFor(() => expect(screen.getByTestId('app-title')).toHaveTextContent('Hack Week::CTF'));
    expect(clientConfigCalls()).toBeGreaterThan(before);
    expect(await screen.findByText('The settings were saved.')).toBeInTheDocument();
  });

  it('saves the account policy with the domain list', async () => {
    const { saved } = serveConfig();
    renderApp('/admin/settings');
    await screen.findByRole('region', { name: 'Accounts' });
    const accounts = section('Accounts');
    await userEvent.click(within(accounts).getByRole('switch', { name: 'Use a captcha' }));
    await userEvent.type(within(accounts).getByRole('combobox', { name: 'Allowed e-mail domains' }), 'uni.test,');
    await userEvent.click(within(accounts).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      accountPolicy: { ...CONFIG.accountPolicy, useCaptcha: true, emailDomainList: 'example.edu,uni.test' },
    });
  });

  it('checks a logo before sending it: image types only, at most 3 MiB', async () => {
    serveConfig();
    const uploads: number[] = [];
    server.use(
      http.post(`${API}/admin/config/logo`, () => {
        uploads.push(1);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    renderApp('/admin/settings');
    await screen.findByRole('region', { name: 'Logo' });
    const input = screen.getByTestId('logo-input');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await screen.findByText('This is not an image type the platform accepts.')).toBeInTheDocument();
    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(await screen.findByText('The image is larger than 3.00 MiB.')).toBeInTheDocument();
    expect(uploads).toEqual([]);
    await userEvent.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(uploads).toEqual([1]));
  });
});
