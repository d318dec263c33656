import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadEnv } from '../../../server/src/env';
import { startServer, type RunningServer } from '../../../server/src/main';
import { ensureClientBuilt } from '../../../server/src/tools/client-build';
import { startMailServer, type MailServer } from '../../helpers/mail-server';
import { createScratchDatabase } from '../../server/helpers/database';
import { signIn } from '../../server/helpers/users';
import { openPgliteFromImage } from '../../server/helpers/pglite-image';

const ROOT = path.resolve(__dirname, '../../..');
export const ARTIFACTS = path.join(ROOT, 'tests/.artifacts/e2e');
const CHROMIUM = '/usr/bin/chromium';

/** The first admin, created at start from ADMIN_PASSWORD. */
export const E2E_ADMIN = { userName: 'Admin', password: 'E2e-Admin-Passw0rd' } as const;

export interface PlatformOptions {
  /** Start a real SMTP server and point the platform at it (mails readable through `mail`). */
  mail?: boolean;
  /** Extra environment settings for the server (see server/src/env.ts). */
  env?: Record<string, string>;
}

export interface Platform {
  server: RunningServer;
  /** The SMTP server the platform sends through, when started with `{ mail: true }`. */
  mail: MailServer | undefined;
  /** Credentials of the first admin. */
  admin: { userName: string; password: string };
  /** The built client the server serves. */
  distDir: string;
  browser: Browser;
  url: string;
  /**
   * What the page's Content-Security-Policy blocked, on every page opened so far: a violation means
   * a script or style the client needs would be missing for real visitors.
   */
  cspViolations: string[];
  /** A page in a fresh browser context: 1280×800 unless a viewport is given. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real thing: the production client build, our server on a free port with a fresh database, and
 * Debian's Chromium driven by playwright-core. The database is a scratch one on the suite's
 * PostgreSQL when DATABASE_URL is set, else the embedded PGlite in a temporary data directory. On
 * PostgreSQL a browser test file took a quarter less CPU (the teams file: 17.5 s against 23.8 s in
 * the test process, on a suite that is CPU-bound on two cores); the server tests run every database
 * test on both engines, and the start test runs `npm start` on PGlite either way.
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const distDir = path.join(ROOT, 'dist');
  ensureClientBuilt(distDir, (line) => process.stdout.write(`${line}\n`));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-e2e-'));
  const postgres = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  // Without PostgreSQL the server's PGlite directory starts as a copy of a migrated image (initdb
  // skipped).
  if (!postgres) await (await openPgliteFromImage(path.join(dataDir, 'db'))).close();
  const mail = options.mail ? await startMailServer() : undefined;
  const env = loadEnv({
    ADMIN_PASSWORD: E2E_ADMIN.password,
    // Browser tests click fast and often; the rate limits have their own server tests.
    DISABLE_RATE_LIMIT: 'true',
    // Only the container browser test talks to an engine (it passes its own setting).
    CONTAINER_PROVIDER: 'None',
    // A test machine's disk may hold less than the 1 GiB captures leave free by default.
    CAPTURE_MIN_FREE_MB: '0',
    ...(mail ? { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mail.port), SMTP_FROM: 'ctf@example.test' } : {}),
    ...options.env,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
  });
  const server = await startServer(env);
  const address = server.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const cspViolations: string[] = [];
  return {
    server,
    mail,
    admin: { ...E2E_ADMIN },
    distDir,
    browser,
    url,
    cspViolations,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: url,
        viewport: options.viewport ?? { width: 1280, height: 800 },
      });
      // The document's violation events (with the directive and what was blocked), and Chromium's
      // console lines for the same, which also cover what no event reports.
      // (A string: this file is compiled without the DOM's types.)
      await context.addInitScript(
        `document.addEventListener('securitypolicyviolation', (event) =>
          console.error('CSP violation: ' + event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline')));`,
      );
      const page = await context.newPage();
      page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
      page.on('console', (message) => {
        if (/CSP violation|Content Security Policy/.test(message.text())) {
          cspViolations.push(`${page.url()}: ${message.text()}`);
        }
      });
      return page;
    },
    async screenshot(page, name) {
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await browser.close();
      await server.close();
      await mail?.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login page and waits until the app bar knows the user. */
export async function signInThroughUi(page: Page, userName: string, password: string): Promise<void> {
  await page.goto('/account/login');
  await page.getByLabel(/^User name or e-mail/).fill(userName);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: `Profile: ${userName}` }).waitFor();
}

/**
 * Signs the page's browser context in with a session made through the API, and opens nothing: for
 * tests whose subject is not the sign-in form (the account tests and a few others go through it), this
 * skips loading the sign-in page and the page it leads to, a third of the CPU of signing in and
 * opening the first page.
 */
export async function signInWithApi(platform: Platform, page: Page, userName: string, password: string) {
  await signInWithCookie(page, platform.url, await signIn(platform.server.app, userName, password));
}

/** Signs a browser context in with a session cookie made through the API (faster than the form). */
export async function signInWithCookie(page: Page, url: string, cookie: string) {
  const at = cookie.indexOf('=');
  await page.context().addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
}
