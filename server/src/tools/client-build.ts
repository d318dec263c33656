import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the built client depends on; a newer file here means dist/ is stale. */
const ROOT = path.resolve(__dirname, '../../..');
const CLIENT_SOURCES = ['src', 'locales', 'webpack.config.ts', 'package-lock.json'];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, child) => Math.max(newest, newestChange(path.join(entry, child))), stat.mtimeMs);
}

export function isClientBuildCurrent(distDir: string): boolean {
  const builtAt = fs.statSync(path.join(distDir, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sourcesAt = Math.max(...CLIENT_SOURCES.map((entry) => newestChange(path.join(ROOT, entry))));
  return builtAt >= sourcesAt;
}

/** Runs the production webpack build into `distDir` unless it is already up to date. */
export function ensureClientBuilt(distDir: string, log: (line: string) => void = () => {}): void {
  if (isClientBuildCurrent(distDir)) return;
  log('Building the web client (first start or changed sources)...');
  const result = spawnSync('npx', ['webpack', '--mode', 'production', '--output-path', distDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('The web client build failed; see the output above.');
}
