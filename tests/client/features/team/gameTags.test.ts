import { configureStore } from '@reduxjs/toolkit';
import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api as gameApi } from '@/features/game/api';
import { api as teamApi } from '@/features/team/api';
import { baseApi } from '@/shared/api/baseApi';
import { sessionApi } from '@/shared/api/session';
import { server } from '../../msw';
import { API } from '../../helpers/render';

const GAME_ID = 5;
const TEAM_ID = 1;

/** A store with the one API only: the tags are what is tested, not the pages. */
function setup() {
  const store = configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
  store.dispatch(baseApi.util.resetApiState());
  return store;
}

/** Counts the reads of the game page and of the teams list; every team and game write succeeds. */
function serve() {
  const reads = { game: 0, teams: 0 };
  const ok = () => new HttpResponse(null, { status: 200 });
  server.use(
    http.get(`${API}/game/${GAME_ID}`, () => {
      reads.game += 1;
      return HttpResponse.json({ id: GAME_ID, title: 'Spring CTF', status: 'Pending', teamName: 'Red' });
    }),
    http.get(`${API}/team`, () => {
      reads.teams += 1;
      return HttpResponse.json([]);
    }),
    http.delete(`${API}/team/${TEAM_ID}`, ok),
    http.post(`${API}/team/${TEAM_ID}/leave`, ok),
    http.post(`${API}/team/${TEAM_ID}/kick/bob`, ok),
    http.put(`${API}/team/${TEAM_ID}/transfer`, () => HttpResponse.json({})),
    http.put(`${API}/team/${TEAM_ID}`, () => HttpResponse.json({})),
    http.post(`${API}/game/${GAME_ID}`, ok),
    http.delete(`${API}/game/${GAME_ID}`, ok),
  );
  return reads;
}

type Store = ReturnType<typeof setup>;

describe('a change of team reaches the game pages (the base API shares tags across features)', () => {
  it.each<[string, (store: Store) => Promise<unknown>]>([
    ['deleting the team', (store) => store.dispatch(teamApi.endpoints.teamDeleteTeam.initiate({ id: TEAM_ID }))],
    ['leaving the team', (store) => store.dispatch(teamApi.endpoints.teamLeave.initiate({ id: TEAM_ID }))],
    [
      'kicking a member',
      (store) => store.dispatch(teamApi.endpoints.teamKickUser.initiate({ id: TEAM_ID, userId: 'bob' })),
    ],
    [
      'handing the captaincy over',
      (store) =>
        store.dispatch(
          teamApi.endpoints.teamTransfer.initiate({ id: TEAM_ID, teamTransferModel: { newCaptainId: 'bob' } }),
        ),
    ],
    [
      'renaming the team',
      (store) =>
        store.dispatch(teamApi.endpoints.teamUpdateTeam.initiate({ id: TEAM_ID, teamUpdateModel: { name: 'Blue' } })),
    ],
  ])('%s reads the game again', async (_case, change) => {
    const reads = serve();
    const store = setup();
    const game = store.dispatch(gameApi.endpoints.gameGame.initiate({ id: GAME_ID }));
    await game;
    expect(reads.game).toBe(1);
    await change(store);
    await waitFor(() => expect(reads.game).toBe(2));
    game.unsubscribe();
  });
});

describe('joining or leaving a game reaches the teams (the team locks or unlocks)', () => {
  it.each<[string, (store: Store) => Promise<unknown>]>([
    [
      'joining',
      (store) =>
        store.dispatch(
          gameApi.endpoints.gameJoinGame.initiate({
            id: GAME_ID,
            gameJoinModel: { teamId: TEAM_ID, division: null, inviteCode: null },
          }),
        ),
    ],
    ['leaving', (store) => store.dispatch(gameApi.endpoints.gameLeaveGame.initiate({ id: GAME_ID }))],
  ])('%s reads the teams again', async (_case, change) => {
    const reads = serve();
    const store = setup();
    const teams = store.dispatch(sessionApi.endpoints.teamGetTeamsInfo.initiate());
    await teams;
    expect(reads.teams).toBe(1);
    await change(store);
    await waitFor(() => expect(reads.teams).toBe(2));
    teams.unsubscribe();
  });
});
