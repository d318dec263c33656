import { webcrypto } from 'node:crypto';
import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import { decryptApiData, generateApiKeyPair } from '../../../server/src/lib/api-encryption';
import { baseQuery } from '@/shared/api/baseQuery';
import { setApiKeySource } from '@/shared/api/encryption';
import { encryptApiData } from '@/shared/api/encryptFields';
import { initialPreferences, preferencesSlice } from '@/shared/preferences/slice';
import { server } from '../msw';

// The browser's WebCrypto (X25519, AES-GCM) against the server's node:crypto decryption.
describe('payload encryption (reference §1.5)', () => {
  // jsdom has no SubtleCrypto; Node's is the same Web Crypto API browsers implement.
  beforeAll(() => Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true }));
  afterEach(() => setApiKeySource(() => null));

  it('encrypts so that the server decrypts it, fresh every time', async () => {
    const keys = generateApiKeyPair('xor');
    const first = await encryptApiData('Pässw0rd', keys.publicKey);
    const second = await encryptApiData('Pässw0rd', keys.publicKey);
    expect(first).not.toBe(second);
    expect(decryptApiData(first, keys.privateKey, 'xor')).toBe('Pässw0rd');
    expect(decryptApiData(second, keys.privateKey, 'xor')).toBe('Pässw0rd');
  });

  function setup() {
    const api = createApi({
      reducerPath: 'api',
      baseQuery,
      endpoints: (build) => ({
        login: build.mutation<unknown, object>({
          query: (body) => ({ url: '/api/login', method: 'POST', body }),
          extraOptions: { encrypt: ['password'] },
        }),
      }),
    });
    const store = configureStore({
      reducer: { api: api.reducer, preferences: preferencesSlice.reducer },
      preloadedState: { preferences: initialPreferences },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    const bodies: Array<Record<string, string>> = [];
    server.use(
      http.post('http://localhost/api/login', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, string>);
        return HttpResponse.json({});
      }),
    );
    return { api, store, bodies };
  }

  it('sends the named fields encrypted while the platform publishes a key, and only those', async () => {
    const keys = generateApiKeyPair(undefined);
    setApiKeySource(() => keys.publicKey);
    const { api, store, bodies } = setup();
    await store.dispatch(api.endpoints.login.initiate({ userName: 'alice', password: 'Passw0rd' }));
    expect(bodies[0]?.userName).toBe('alice');
    expect(bodies[0]?.password).not.toBe('Passw0rd');
    expect(decryptApiData(bodies[0]!.password!, keys.privateKey, undefined)).toBe('Passw0rd');
  });

  it('sends plain text when no key is published', async () => {
    const { api, store, bodies } = setup();
    await store.dispatch(api.endpoints.login.initiate({ userName: 'alice', password: 'Passw0rd' }));
    expect(bodies[0]).toEqual({ userName: 'alice', password: 'Passw0rd' });
  });
});
