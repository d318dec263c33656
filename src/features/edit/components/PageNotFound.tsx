import { NotFound } from '@/shared/ui/NotFound';

/** The not-found page for an admin game path whose id cannot name a game (`/admin/games/abc`): back to the games. */
export function PageNotFound() {
  return <NotFound back={{ to: '/admin/games', label: 'edit:frame.back' }} />;
}
