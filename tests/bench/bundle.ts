/**
 * Home-page JavaScript: load `/` of the production build in Chromium (our real server, a fresh
 * database), collect every script the page fetched until the network went quiet, and report each
 * chunk's size raw and gzipped at level 9, with the total the target is about (≤ 220 KB gzipped).
 * Then check that no chunk the home page loads carries MUI X DataGrid or Charts code: those belong
 * in the chunks of the pages that use them.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startPlatform } from '../e2e/helpers/platform';

export const HOME_JS_TARGET_KB = 220;

/** Strings that survive minification and only MUI X's grid or charts contain (their CSS class prefixes). */
const MUI_X_MARKERS: Record<string, RegExp> = {
  '@mui/x-data-grid': /MuiDataGrid/,
  '@mui/x-charts': /MuiCharts/,
};

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

interface Chunk {
  name: string;
  raw: number;
  gzip: number;
  muiX: string[];
}

function muiXIn(source: string): string[] {
  return Object.entries(MUI_X_MARKERS)
    .filter(([, marker]) => marker.test(source))
    .map(([name]) => name);
}

export async function benchBundle(): Promise<string[]> {
  const platform = await startPlatform();
  try {
    const page = await platform.newPage();
    const scripts = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (response.request().resourceType() === 'script' || url.pathname.endsWith('.js')) {
        scripts.set(url.pathname, response.body());
      }
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByTestId('platform-title').waitFor();
    const chunks: Chunk[] = [];
    for (const [pathname, body] of scripts) {
      const source = await body;
      chunks.push({
        name: pathname,
        raw: source.length,
        gzip: zlib.gzipSync(source, { level: 9 }).length,
        muiX: muiXIn(source.toString('utf8')),
      });
    }
    chunks.sort((a, b) => b.gzip - a.gzip);
    const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
    const rawTotal = chunks.reduce((sum, chunk) => sum + chunk.raw, 0);

    // Every built chunk, to show where MUI X code lives (none yet while no page uses it).
    const jsDir = path.join(platform.distDir, 'js');
    const elsewhere = fs
      .readdirSync(jsDir)
      .filter((file) => file.endsWith('.js') && !scripts.has(`/js/${file}`))
      .map((file) => ({ file, muiX: muiXIn(fs.readFileSync(path.join(jsDir, file), 'utf8')) }))
      .filter((entry) => entry.muiX.length > 0);

    const offenders = chunks.filter((chunk) => chunk.muiX.length > 0);
    return [
      `home page (/) loads ${chunks.length} scripts:`,
      ...chunks.map(
        (chunk) => `  ${chunk.name.padEnd(44)} ${kb(chunk.raw).padStart(10)} raw ${kb(chunk.gzip).padStart(9)} gzip -9`,
      ),
      `home page JavaScript: ${kb(total)} gzipped (${kb(rawTotal)} raw); target <= ${HOME_JS_TARGET_KB} KB: ${
        total <= HOME_JS_TARGET_KB * 1000 ? 'met' : 'MISSED'
      }`,
      offenders.length === 0
        ? 'no chunk the home page loads contains @mui/x-data-grid or @mui/x-charts code'
        : `MUI X code in home-page chunks: ${offenders.map((chunk) => `${chunk.name} (${chunk.muiX.join(', ')})`).join('; ')}`,
      elsewhere.length === 0
        ? 'MUI X code in other chunks: none (no page uses the data grid or charts yet)'
        : `MUI X code in other chunks: ${elsewhere.map((entry) => `${entry.file} (${entry.muiX.join(', ')})`).join('; ')}`,
    ];
  } finally {
    await platform.close();
  }
}
