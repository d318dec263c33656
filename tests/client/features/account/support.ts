import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../helpers/render';

export const USER = {
  userId: '5b0c6b9e-4b8e-4f6c-9d2a-0a9c0b6a1f00',
  userName: 'alice',
  email: 'alice@example.org',
  bio: 'Reverse engineer',
  phone: '',
  realName: 'Alice Liddell',
  stdNumber: '2024001',
  avatar: null,
  role: 'User',
} as const;

/** `GET /api/captcha`: no captcha unless told. */
export function mockCaptcha(type: 'None' | 'HashPow' | 'CloudflareTurnstile' = 'None') {
  server.use(http.get(`${API}/captcha`, () => HttpResponse.json({ type, siteKey: '' })));
}

/**
 * A profile endpoint whose answer follows a session the tests switch on and off, like the server's
 * cookie: signed out answers 401.
 */
export function mockSession(initial: Record<string, unknown> | null = null) {
  const session = { user: initial, probes: 0 };
  server.use(
    http.get(`${API}/account/profile`, () => {
      session.probes += 1;
      return session.user
        ? HttpResponse.json(session.user)
        : HttpResponse.json({ title: 'Please sign in', status: 401 }, { status: 401 });
    }),
  );
  return session;
}

/** Collects the JSON bodies a handler receives. */
export async function readJson(request: Request, into: unknown[]) {
  into.push(await request.json());
}
