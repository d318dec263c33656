import type { Page } from 'playwright-core';

export interface WireScript {
  url: string;
  /** Bytes received for it, headers included, as Chromium counts them (CDP `encodedDataLength`). */
  wire: number;
  /** The body's size once decoded. */
  decoded: number;
  encoding: string | undefined;
}

/**
 * Opens `path` and lists every script the page fetched until the network went quiet, with what it
 * cost on the wire: the size budget of the home page is about bytes sent, not bytes run.
 */
export async function scriptsOverTheWire(page: Page, path: string, ready: () => Promise<void>): Promise<WireScript[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // A fresh page still shares nothing with earlier pages of the context, but be sure.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, { url: string; encoding: string | undefined; decoded: number }>();
  const finished: WireScript[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const isScript = event.type === 'Script' || new URL(event.response.url).pathname.endsWith('.js');
    if (!isScript) return;
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    scripts.set(event.requestId, { url: event.response.url, encoding: headers['content-encoding'], decoded: 0 });
  });
  cdp.on('Network.dataReceived', (event) => {
    const script = scripts.get(event.requestId);
    if (script) script.decoded += event.dataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const script = scripts.get(event.requestId);
    if (script) finished.push({ ...script, wire: event.encodedDataLength });
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await ready();
  await cdp.detach();
  return finished;
}
