// The games module's public surface: game settings, key pair, poster, deleting a game with everything
// in it, and games as players see them (lists, phase checks, the scoreboard freeze).
export { findGame, type GameRow } from './games.repository';
export { createGame, deleteGame, editGame, getGame, getGames, requireGame, updatePoster } from './games.service';
export {
  browseGames,
  ended,
  gameOrNotFound,
  getFreeze,
  notStarted,
  posterUrl,
  recentGames,
  requireStarted,
  setFreeze,
} from './play.service';
