import { createContext, useContext } from 'react';

/**
 * Who is looking at the team pages. The signed-in user comes from the account feature, which this
 * feature may not import; the app provides it around the team routes (src/app/guards.tsx).
 */
export interface TeamViewer {
  isLoading: boolean;
  signedIn: boolean;
  userId: string | null;
}

export const TeamViewerContext = createContext<TeamViewer>({ isLoading: true, signedIn: false, userId: null });

export const useTeamViewer = () => useContext(TeamViewerContext);
