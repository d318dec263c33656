/**
 * Moving between routes inside one loaded app, and knowing when the page has finished responding:
 * a full load parses the whole bundle again, which costs more CPU than most checks made on the page.
 */
import type { Page } from 'playwright-core';

/**
 * Resolves once the page has stopped fetching (API calls and lazily loaded chunks) for a moment, and
 * then stopped adding and removing elements (which also outlasts MUI's transitions, 225 ms at most).
 * `fetches: false` skips the first part, for changes that load nothing (a new window size).
 */
export async function settled(page: Page, pending: () => number, fetches = true): Promise<void> {
  const deadline = Date.now() + 10_000;
  let quietSince = Date.now();
  while (fetches && Date.now() < deadline) {
    if (pending() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 200) break;
    await page.waitForTimeout(50);
  }
  await page.evaluate(DOM_QUIET);
}

// Resolves when no element has been added or removed for 300 ms (5 s at most): what the last responses
// brought is rendered, including what renders in a later frame (the data grid measures itself before
// it draws its rows). Text and attribute changes are left out: clocks and progress bars never stop.
// (A string: this file is compiled without the DOM's types.)
const DOM_QUIET = `new Promise((resolve) => {
  let timer;
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, 300); });
  const cap = setTimeout(done, 5000);
  function done() { observer.disconnect(); clearTimeout(cap); clearTimeout(timer); resolve(undefined); }
  observer.observe(document.body, { childList: true, subtree: true });
  timer = setTimeout(done, 300);
})`;

/** Counts the page's requests in flight (WebSockets are not requests and never count). */
export function trackRequests(page: Page): () => number {
  let inFlight = 0;
  page.on('request', () => (inFlight += 1));
  const done = () => (inFlight = Math.max(0, inFlight - 1));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => inFlight;
}

// Transitions off: axe must see colours as they end, not halfway through a fade (a button that turns
// from disabled to enabled, say, after the DOM has gone quiet). A constructed sheet, which the page's
// Content-Security-Policy does not stop as it would a <style> element.
const NO_MOTION = `(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('*, *::before, *::after { transition: none !important; animation: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})()`;

/**
 * Moves to `path` inside the running app as a link would (the router follows `popstate`), so the
 * bundle is not loaded and parsed again for every route; the first visit loads the page.
 */
export async function visit(page: Page, path: string): Promise<void> {
  if (page.url() === 'about:blank') {
    await page.goto(path);
    await page.evaluate(NO_MOTION);
    return;
  }
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
}
