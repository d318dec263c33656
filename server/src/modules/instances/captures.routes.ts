import type { Handlers } from '../../contract/handlers';

/** Traffic captures for monitors (reference §2.5, §5.10). */
export const capturesHandlers: Handlers = {};
