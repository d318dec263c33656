/**
 * Runs one group of node:test suites (`server`, `contract`, `e2e`) through tsx: one process per file,
 * spec output on the terminal and a TAP copy that tests/run.ts reads the counts from.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
export const ARTIFACTS = path.join(__dirname, '.artifacts');

export const GROUPS: Record<string, { dir: string; timeoutMs: number }> = {
  contract: { dir: 'tests/contract', timeoutMs: 120_000 },
  server: { dir: 'tests/server', timeoutMs: 300_000 },
  e2e: { dir: 'tests/e2e', timeoutMs: 600_000 },
};

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

export function runGroup(name: string, extraArgs: string[] = []): number {
  const group = GROUPS[name];
  if (!group) throw new Error(`Unknown test group ${name}; use one of ${Object.keys(GROUPS).join(', ')}`);
  const files = findTests(path.join(ROOT, group.dir)).sort();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const tap = path.join(ARTIFACTS, `${name}.tap`);
  fs.rmSync(tap, { force: true });
  if (files.length === 0) {
    process.stdout.write(`no ${name} tests found\n`);
    return 0;
  }
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-timeout=${group.timeoutMs}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...extraArgs,
      ...files.map((file) => path.relative(ROOT, file)),
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  return result.status ?? 1;
}

if (require.main === module) {
  const [name = 'server', ...rest] = process.argv.slice(2);
  process.exit(runGroup(name, rest));
}
