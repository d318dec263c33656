/**
 * Home-page JavaScript: load `/` of the production build in Chromium (our real server, a fresh
 * database), collect every script the page fetched until the network went quiet, and report what
 * each costs on the wire: raw, as the server sends it gzipped and brotli-compressed (the build's
 * precompressed files), and what Chromium itself received (CDP, headers included), with the total
 * the target is about (<= 220 KB as sent over the wire). Then check that no chunk the home page
 * loads carries MUI X DataGrid or Charts code: those belong in the chunks of the pages that use them.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startPlatform } from '../e2e/helpers/platform';
import { scriptsOverTheWire } from '../e2e/helpers/wire';

export const HOME_JS_TARGET_KB = 220;

/**
 * Strings that survive minification and only MUI X's grid or charts contain: names of their own
 * elements' classes (the grid builds its class names from the prefix and these). Not the bare
 * `MuiDataGrid` prefix: our theme's override and the grids' `sx` selectors name it too, so it
 * flagged the home page's main chunk though no grid code was there.
 */
const MUI_X_MARKERS: Record<string, RegExp> = {
  '@mui/x-data-grid': /virtualScrollerContent/,
  '@mui/x-charts': /MuiChartsSurface/,
};

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

interface Chunk {
  name: string;
  raw: number;
  gzip: number;
  br: number;
  /** What Chromium received for it, headers included, and in which coding. */
  chromium: number;
  coding: string;
  muiX: string[];
}

/** The body exactly as the server sends it for this Accept-Encoding (no decoding on our side). */
function fetchAs(url: string, acceptEncoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => resolve(Buffer.concat(parts)));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function muiXIn(source: string): string[] {
  return Object.entries(MUI_X_MARKERS)
    .filter(([, marker]) => marker.test(source))
    .map(([name]) => name);
}

const sum = (chunks: Chunk[], pick: (chunk: Chunk) => number) =>
  chunks.reduce((total, chunk) => total + pick(chunk), 0);

export async function benchBundle(): Promise<string[]> {
  const platform = await startPlatform();
  try {
    const page = await platform.newPage();
    const scripts = await scriptsOverTheWire(page, '/', () => page.getByTestId('platform-title').waitFor());
    const chunks: Chunk[] = [];
    for (const script of scripts) {
      const [raw, gzip, br] = await Promise.all(
        ['identity', 'gzip', 'br'].map((coding) => fetchAs(script.url, coding)),
      );
      chunks.push({
        name: new URL(script.url).pathname,
        raw: raw!.length,
        gzip: gzip!.length,
        br: br!.length,
        chromium: script.wire,
        coding: script.encoding ?? 'identity',
        muiX: muiXIn(raw!.toString('utf8')),
      });
    }
    chunks.sort((a, b) => b.raw - a.raw);
    const chromium = sum(chunks, (chunk) => chunk.chromium);
    const codings = [...new Set(chunks.map((chunk) => chunk.coding))].join('/');
    const loaded = new Set(chunks.map((chunk) => path.basename(chunk.name)));

    // Every built chunk, to show where MUI X code lives.
    const jsDir = path.join(platform.distDir, 'js');
    const elsewhere = fs
      .readdirSync(jsDir)
      .filter((file) => file.endsWith('.js') && !loaded.has(file))
      .map((file) => ({ file, muiX: muiXIn(fs.readFileSync(path.join(jsDir, file), 'utf8')) }))
      .filter((entry) => entry.muiX.length > 0);

    const offenders = chunks.filter((chunk) => chunk.muiX.length > 0);
    const column = (bytes: number, label: string) => `${kb(bytes).padStart(10)} ${label}`;
    return [
      `home page (/) loads ${chunks.length} scripts (bodies as sent for each Accept-Encoding; Chromium: received, headers included):`,
      ...chunks.map(
        (chunk) =>
          `  ${chunk.name.padEnd(40)}${column(chunk.raw, 'raw')}${column(chunk.gzip, 'gzip')}${column(chunk.br, 'br')}` +
          `${column(chunk.chromium, `Chromium (${chunk.coding})`)}`,
      ),
      `home page JavaScript over the wire: ${kb(sum(chunks, (chunk) => chunk.raw))} raw, ` +
        `${kb(sum(chunks, (chunk) => chunk.gzip))} gzip, ${kb(sum(chunks, (chunk) => chunk.br))} brotli`,
      `home page JavaScript as Chromium received it (${codings}): ${kb(chromium)}; target <= ${HOME_JS_TARGET_KB} KB: ${
        chromium <= HOME_JS_TARGET_KB * 1000 ? 'met' : 'MISSED'
      }`,
      offenders.length === 0
        ? 'no chunk the home page loads contains @mui/x-data-grid or @mui/x-charts code'
        : `MUI X code in home-page chunks: ${offenders.map((chunk) => `${chunk.name} (${chunk.muiX.join(', ')})`).join('; ')}`,
      elsewhere.length === 0
        ? 'MUI X code in other chunks: none'
        : `MUI X code in other chunks: ${elsewhere.map((entry) => `${entry.file} (${entry.muiX.join(', ')})`).join('; ')}`,
    ];
  } finally {
    await platform.close();
  }
}
