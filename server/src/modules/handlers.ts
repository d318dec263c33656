import type { Handlers } from '../contract/handlers';
import { infoHandlers } from './info/info.routes';

/** Every built operation, by operationId. Anything missing here answers 501 (see `npm run api:coverage`). */
export const handlers: Handlers = {
  ...infoHandlers,
};
