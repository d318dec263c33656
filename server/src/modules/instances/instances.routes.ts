import type { Handlers } from '../../contract/handlers';

/** Player containers, admin instances and test containers (reference §2.2, §2.4, §2.5, §5.9). */
export const instancesHandlers: Handlers = {};
