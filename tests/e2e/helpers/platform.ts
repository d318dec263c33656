import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadEnv } from '../../../server/src/env';
import { startServer, type RunningServer } from '../../../server/src/main';
import { ensureClientBuilt } from '../../../server/src/tools/client-build';

const ROOT = path.resolve(__dirname, '../../..');
export const ARTIFACTS = path.join(ROOT, 'tests/.artifacts/e2e');
const CHROMIUM = '/usr/bin/chromium';

export interface Platform {
  server: RunningServer;
  browser: Browser;
  url: string;
  newPage(): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real thing: the production client build, our server on a free port with a fresh embedded
 * database (PostgreSQL when DATABASE_URL is set), and Debian's Chromium driven by playwright-core.
 */
export async function startPlatform(): Promise<Platform> {
  const distDir = path.join(ROOT, 'dist');
  ensureClientBuilt(distDir, (line) => process.stdout.write(`${line}\n`));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-e2e-'));
  const env = loadEnv({
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
  return {
    server,
    browser,
    url,
    async newPage() {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
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
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
