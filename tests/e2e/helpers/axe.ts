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
