import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * One msw server for the client suites; each test adds the handlers it needs with `server.use`. The
 * one default: no wsrx daemon runs on the test machine (the app looks for one at start-up), which is
 * what a visitor without the daemon sees too; the wsrx suites put their own daemon in front of it.
 */
export const server = setupServer(http.all('http://127.0.0.1:3307/*', () => HttpResponse.error()));
