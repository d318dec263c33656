/**
 * Runs one group of node:test suites (`server`, `contract`, `e2e`) through tsx: one process per file,
 * spec output on the terminal and a TAP copy that tests/run.ts reads the counts from.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureClientBuilt } from '../server/src/tools/client-build';

const ROOT = path.resolve(__dirname, '..');
export const ARTIFACTS = path.join(__dirname, '.artifacts');

interface Group {
  dir: string;
  timeoutMs: number;
  /** Test files run at once (node --test's default on 2 cores is one). */
  concurrency: number;
  /**
   * Folders (under `dir`) whose files run afterwards, one at a time: they start Docker containers,
   * kill and restart processes or time shutdowns, and a neighbour competing for the engine or the
   * cores made them fail (a burst of container starts did, at two files at once).
   */
  alone?: string[];
  /** Runs once before the group's files start. */
  prepare?: () => void;
  /** Node flags for every test file's process (the runner hands its own flags down to them). */
  nodeFlags?: string[];
}

/**
 * WebAssembly compiled by the baseline compiler only: PGlite is a 9 MB module, and the optimising
 * tier recompiled its hot functions in the background of every test process, work a short-lived
 * process never earns back (measured on three PGlite-heavy server files: 17 % less CPU in all).
 */
const BASELINE_WASM = '--liftoff-only';

export const GROUPS: Record<string, Group> = {
  contract: { dir: 'tests/contract', timeoutMs: 120_000, concurrency: 1, nodeFlags: [BASELINE_WASM] },
  server: {
    dir: 'tests/server',
    timeoutMs: 300_000,
    // Each file mostly waits on PostgreSQL, PGlite and timers: two at once keep both cores busy.
    concurrency: 2,
    alone: ['instances', 'crash', 'multi', 'core/shutdown.test.ts'],
    nodeFlags: [BASELINE_WASM],
  },
  e2e: {
    dir: 'tests/e2e',
    timeoutMs: 600_000,
    // Each file starts its own server, database and Chromium (free ports, its own data directory)
    // and spends much of its time waiting on the page, so two at once share the cores well. The
    // client they serve is built before they start, never by two files at once.
    concurrency: 2,
    prepare: () => ensureClientBuilt(path.join(ROOT, 'dist'), (line) => process.stdout.write(`${line}\n`)),
  },
};

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  if (!fs.statSync(dir).isDirectory()) return dir.endsWith('.test.ts') ? [dir] : [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => findTests(path.join(dir, entry.name)));
}

/** The TAP files a group's run writes, one per pass; tests/run.ts adds up their counts. */
export const tapFiles = (name: string) => [
  path.join(ARTIFACTS, `${name}.tap`),
  path.join(ARTIFACTS, `${name}-alone.tap`),
];

function runFiles(files: string[], tap: string, group: Group, concurrency: number, extraArgs: string[]): number {
  if (files.length === 0) return 0;
  const result = spawnSync(
    process.execPath,
    [
      ...(group.nodeFlags ?? []),
      '--import',
      'tsx',
      '--test',
      `--test-timeout=${group.timeoutMs}`,
      `--test-concurrency=${concurrency}`,
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

export function runGroup(name: string, extraArgs: string[] = []): number {
  const group = GROUPS[name];
  if (!group) throw new Error(`Unknown test group ${name}; use one of ${Object.keys(GROUPS).join(', ')}`);
  const base = path.join(ROOT, group.dir);
  const alone = new Set((group.alone ?? []).flatMap((entry) => findTests(path.join(base, entry))));
  const files = findTests(base).sort();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const [tap, aloneTap] = tapFiles(name) as [string, string];
  for (const file of [tap, aloneTap]) fs.rmSync(file, { force: true });
  if (files.length === 0) {
    process.stdout.write(`no ${name} tests found\n`);
    return 0;
  }
  group.prepare?.();
  const together = files.filter((file) => !alone.has(file));
  const first = runFiles(together, tap, group, group.concurrency, extraArgs);
  const second = runFiles(
    files.filter((file) => alone.has(file)),
    aloneTap,
    group,
    1,
    extraArgs,
  );
  return first || second;
}

if (require.main === module) {
  const [name = 'server', ...rest] = process.argv.slice(2);
  process.exit(runGroup(name, rest));
}
