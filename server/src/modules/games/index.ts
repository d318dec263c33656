// The games module's public surface: game settings, key pair, poster, deleting a game with everything in it.
export { deleteTestContainers, findGame, type GameRow } from './games.repository';
export { createGame, deleteGame, editGame, getGame, getGames, requireGame, updatePoster } from './games.service';
