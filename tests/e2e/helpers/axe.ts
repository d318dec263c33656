import fs from 'node:fs';
import type { Page } from 'playwright-core';

/** WCAG 2.1 levels A and AA: the rules every page is held to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
/** The impacts that fail the test; "moderate" and "minor" are reported by axe but left to review. */
const FAILING = new Set(['serious', 'critical']);

// Evaluated rather than added as a <script> tag: the page's Content-Security-Policy (nonce scripts
// only) would block an inline script, and the test must see the page as served, CSP included.
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  route: string;
  width: number;
  help: string;
  /** The first few offending elements, as axe's CSS selectors. */
  targets: string[];
  count: number;
  /** The first offending element's markup and axe's reason, shortened. */
  example: string;
}

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
}

/**
 * Runs axe over the whole document (dialogs and menus included) and returns its serious and critical
 * violations of the WCAG 2.1 A/AA rules, tagged with where they were seen.
 */
export async function axeViolations(page: Page, route: string): Promise<Violation[]> {
  const loaded = await page.evaluate('typeof window.axe !== "undefined"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  // (A string: this file is compiled without the DOM's types; `axe` is the global defined above.)
  const results = await page.evaluate<AxeResult[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
      .then((run) => run.violations)`,
  );
  const width = page.viewportSize()?.width ?? 0;
  return results
    .filter((result) => FAILING.has(result.impact ?? ''))
    .map((result) => ({
      id: result.id,
      impact: result.impact ?? '',
      route,
      width,
      help: result.help,
      targets: result.nodes.slice(0, 3).map((node) => node.target.map(String).join(' ')),
      count: result.nodes.length,
      example: `${result.nodes[0]?.html.slice(0, 200) ?? ''} ${result.nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? ''}`,
    }));
}

/** One line per violation: what, how bad, where, at which width, and the first elements at fault. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}) on ${v.route} at ${v.width} px, ${v.count} element(s): ${v.help}\n    ${v.targets.join('\n    ')}\n    e.g. ${v.example}`,
    )
    .join('\n');
}

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
