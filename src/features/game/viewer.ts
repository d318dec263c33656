import { createContext, useContext } from 'react';

/**
 * Who is looking at the game pages. The signed-in user comes from the account feature, which this
 * feature may not import; the app provides it around the game routes (src/app/guards.tsx).
 * `isMonitor` is true for monitors and admins (the monitor pages and live standings past a freeze).
 */
export interface GameViewer {
  isLoading: boolean;
  signedIn: boolean;
  userId: string | null;
  userName: string | null;
  isMonitor: boolean;
  isAdmin: boolean;
  /** The signed-in user's teams (the team feature's `GET /api/team`), for the join dialog. */
  teams: Array<{ id: number; name: string }>;
  /** True while those teams are being fetched. */
  teamsLoading: boolean;
}

export const GameViewerContext = createContext<GameViewer>({
  isLoading: true,
  signedIn: false,
  userId: null,
  userName: null,
  isMonitor: false,
  isAdmin: false,
  teams: [],
  teamsLoading: false,
});

export const useGameViewer = () => useContext(GameViewerContext);
