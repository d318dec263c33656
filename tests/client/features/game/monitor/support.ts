import { http, HttpResponse } from 'msw';
import { server } from '../../../msw';
import { API, mockPlatform } from '../../../helpers/render';

export const GAME_ID = 7;
export const MONITOR = {
  userId: 'm0000000-0000-0000-0000-000000000001',
  userName: 'watcher',
  role: 'Monitor',
} as const;

/** The platform calls, the game's info and a signed-in user of `role`; the hub is unreachable (polling only). */
export function mockGame(role: 'Monitor' | 'User' | null = 'Monitor') {
  mockPlatform(role ? { profile: { ...MONITOR, role } } : {});
  server.use(
    http.get(`${API}/team`, () => HttpResponse.json([])),
    http.get(`${API}/game/${GAME_ID}`, () =>
      HttpResponse.json({
        id: GAME_ID,
        title: 'Spring CTF',
        summary: '',
        content: '',
        hidden: false,
        divisions: null,
        inviteCodeRequired: false,
        writeupRequired: false,
        limit: 0,
        teamCount: 3,
        practiceMode: false,
        status: 'Unsubmitted',
        start: 1_700_000_000_000,
        end: 1_900_000_000_000,
      }),
    ),
    // SignalR negotiates over HTTP first; refusing it leaves the pages on their polling.
    http.post('http://localhost/hub/:hub/negotiate', () => new HttpResponse(null, { status: 503 })),
  );
}
