// The scoreboard module's public surface: the cached boards as each reader sees them.
export { ctftimeFeed, details, scoreboardEntry, scoreboardJson } from './views.service';
