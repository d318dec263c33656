/**
 * Runs one group of node:test suites (`server`, `contract`, `e2e`) through tsx: one process per file
 * (or per few files: `filesPerProcess`), spec output on the terminal and a TAP copy that tests/run.ts
 * reads the counts from.
 */
import { spawn, spawnSync } from 'node:child_process';
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
   * Folders and files (under `dir`) that run afterwards, in lanes: a lane's files run one at a time,
   * its lanes side by side. They start Docker containers, kill and restart processes or time
   * shutdowns, and a file of the same kind beside them made them fail (a burst of container starts
   * did, at two files at once); one lane of each kind still leaves a core idle half the time, so the
   * Docker files and the process-killing ones share the machine (measured: 125 s one at a time).
   */
  alone?: string[][];
  /** Runs once before the group's files start. */
  prepare?: () => void;
  /** Node flags for every test file's process (the runner hands its own flags down to them). */
  nodeFlags?: string[];
  /**
   * Test files per process (default 1). Each process loads the server's code (about 1.5 CPU-seconds
   * with tsx) and warms its JIT and its PGlite up; files sharing a process pay that once.
   */
  filesPerProcess?: number;
  /** Files (under `dir`) whose processes start first, one each: the longest, so no core idles at the end. */
  longest?: string[];
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
    // Each file mostly waits on PostgreSQL, PGlite and timers: two at once keep both cores busy
    // (three at once measured 252 s once and 273 s in CI for the pass that took 270 s at two).
    concurrency: 2,
    alone: [['instances'], ['crash', 'multi', 'core/shutdown.test.ts']],
    nodeFlags: [BASELINE_WASM],
    filesPerProcess: 6,
    longest: ['fuzz'],
  },
  e2e: {
    dir: 'tests/e2e',
    timeoutMs: 600_000,
    // Each file starts its own server, database and Chromium (free ports, its own data directory)
    // and spends much of its time waiting on the page, so two at once share the cores well. The
    // client they serve is built before they start, never by two files at once.
    concurrency: 2,
    prepare: () => ensureClientBuilt(path.join(ROOT, 'dist'), (line) => process.stdout.write(`${line}\n`)),
    // Over 40 s each, longest first (on a slow machine: phone 65 s, containers 64 s, the accessibility
    // pass 107 s until split in two halves, shell 43 s, of 384 s in all). In name order the shell file
    // starts near the end; on the measured durations longest-first ends 6–10 s sooner.
    longest: [
      'phone.test.ts',
      'containers.test.ts',
      'accessibility-staff.test.ts',
      'accessibility-public.test.ts',
      'shell.test.ts',
    ],
  },
};

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  if (!fs.statSync(dir).isDirectory()) return dir.endsWith('.test.ts') ? [dir] : [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => findTests(path.join(dir, entry.name)));
}

/** The TAP files a group's run writes, one per pass and lane; tests/run.ts adds up their counts. */
export const tapFiles = (name: string) => [
  path.join(ARTIFACTS, `${name}.tap`),
  ...(GROUPS[name]?.alone ?? []).map((_, lane) => path.join(ARTIFACTS, `${name}-alone-${lane}.tap`)),
];

function testArgs(files: string[], tap: string, group: Group, concurrency: number, extraArgs: string[]): string[] {
  return [
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
  ];
}

function runFiles(files: string[], tap: string, group: Group, concurrency: number, extraArgs: string[]): number {
  if (files.length === 0) return 0;
  const result = spawnSync(process.execPath, testArgs(files, tap, group, concurrency, extraArgs), {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return result.status ?? 1;
}

/**
 * The lanes side by side, each running its files one at a time; a lane's report is printed whole
 * when it ends, so two lanes' lines never interleave. Resolves to the first non-zero exit status.
 */
async function runLanes(lanes: string[][], taps: string[], group: Group, extraArgs: string[]): Promise<number> {
  const statuses = await Promise.all(
    lanes.map(
      (files, lane) =>
        new Promise<number>((resolve) => {
          if (files.length === 0) return resolve(0);
          const child = spawn(process.execPath, testArgs(files, taps[lane]!, group, 1, extraArgs), {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          const output: Buffer[] = [];
          child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
          child.on('close', (code) => {
            process.stdout.write(Buffer.concat(output));
            resolve(code ?? 1);
          });
        }),
    ),
  );
  return statuses.find((status) => status !== 0) ?? 0;
}

/**
 * The files as node --test should run them: entry files under the artifacts folder, named in the
 * order they should start (node --test sorts the files it is given by name): the `longest` files
 * first, each on its own, then runs of `filesPerProcess` neighbouring files (neighbours share
 * helpers), each entry importing its run. A file's tests still run one after another, in its
 * order, and the files of one entry one after another, as node --test runs them in a process.
 */
function entries(files: string[], base: string, group: Group, name: string): string[] {
  const perProcess = group.filesPerProcess ?? 1;
  const longest = new Set(
    (group.longest ?? []).flatMap((entry) => findTests(path.join(base, entry))).filter((file) => files.includes(file)),
  );
  if (perProcess <= 1 && longest.size === 0) return files;
  const runs = [...longest].map((file) => [file]);
  const rest = files.filter((file) => !longest.has(file));
  for (let at = 0; at < rest.length; at += perProcess) runs.push(rest.slice(at, at + perProcess));
  const folder = path.join(ARTIFACTS, `${name}-processes`);
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  return runs.map((run, index) => {
    const entry = path.join(folder, `${String(index).padStart(2, '0')}.test.ts`);
    const imports = run.map((file) => `import ${JSON.stringify(path.relative(folder, file).replace(/\.ts$/, ''))};`);
    fs.writeFileSync(entry, `${imports.join('\n')}\n`);
    return entry;
  });
}

export async function runGroup(name: string, extraArgs: string[] = []): Promise<number> {
  const group = GROUPS[name];
  if (!group) throw new Error(`Unknown test group ${name}; use one of ${Object.keys(GROUPS).join(', ')}`);
  const base = path.join(ROOT, group.dir);
  const files = findTests(base).sort();
  const lanes = (group.alone ?? []).map((lane) =>
    lane.flatMap((entry) => findTests(path.join(base, entry))).filter((file) => files.includes(file)),
  );
  const alone = new Set(lanes.flat());
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const [tap, ...laneTaps] = tapFiles(name) as [string, ...string[]];
  for (const file of [tap, ...laneTaps]) fs.rmSync(file, { force: true });
  if (files.length === 0) {
    process.stdout.write(`no ${name} tests found\n`);
    return 0;
  }
  group.prepare?.();
  const together = files.filter((file) => !alone.has(file));
  const first = runFiles(entries(together, base, group, name), tap, group, group.concurrency, extraArgs);
  const second = await runLanes(
    lanes.map((lane, index) => entries(lane, base, group, `${name}-alone-${index}`)),
    laneTaps,
    group,
    extraArgs,
  );
  return first || second;
}

if (require.main === module) {
  const [name = 'server', ...rest] = process.argv.slice(2);
  void runGroup(name, rest).then((status) => process.exit(status));
}
