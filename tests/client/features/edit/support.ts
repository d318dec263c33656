import { http, HttpResponse } from 'msw';
import type { GameInfoModel } from '@/features/edit/api';
import { server } from '../../msw';
import { API, mockPlatform } from '../../helpers/render';

export const ADMIN = { userId: 'a0000000-0000-0000-0000-000000000001', userName: 'root', role: 'Admin' } as const;

/** The platform calls plus a signed-in admin. */
export function mockAdmin() {
  mockPlatform();
  server.use(http.get(`${API}/account/profile`, () => HttpResponse.json(ADMIN)));
}

export const START = Date.UTC(2030, 0, 10, 8, 0);
export const END = Date.UTC(2030, 0, 12, 8, 0);

export function game(id: number, overrides: Partial<GameInfoModel> = {}): GameInfoModel {
  return {
    id,
    title: `Game ${id}`,
    hidden: false,
    summary: '',
    content: '',
    acceptWithoutReview: false,
    writeupRequired: false,
    inviteCode: null,
    divisions: null,
    teamMemberCountLimit: 0,
    containerCountLimit: 3,
    poster: null,
    publicKey: 'PUBKEY',
    practiceMode: true,
    start: START,
    end: END,
    writeupDeadline: END,
    writeupNote: '',
    bloodBonus: (50 << 20) + (30 << 10) + 10,
    ...overrides,
  };
}

/**
 * `GET /api/edit/games/:id` answering the stored game, and PUT recording each body; the same for
 * the game's scoreboard freeze (`/api/game/:id/freeze`).
 */
export function serveGame(initial: GameInfoModel, freezeAt: number | null = null) {
  const state = { game: initial, updates: [] as GameInfoModel[], freezeAt, freezes: [] as Array<number | null> };
  server.use(
    http.get(`${API}/edit/games/:id`, () => HttpResponse.json(state.game)),
    http.put(`${API}/edit/games/:id`, async ({ request }) => {
      const body = (await request.json()) as GameInfoModel;
      state.updates.push(body);
      state.game = { ...state.game, ...body };
      return HttpResponse.json(state.game);
    }),
    http.get(`${API}/game/:id/freeze`, () => HttpResponse.json({ freezeAt: state.freezeAt })),
    http.put(`${API}/game/:id/freeze`, async ({ request }) => {
      state.freezeAt = ((await request.json()) as { freezeAt: number | null }).freezeAt;
      state.freezes.push(state.freezeAt);
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return state;
}
