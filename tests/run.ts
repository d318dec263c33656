/**
 * `npm test`: every check the project has, in order, on whatever engines the machine offers
 * (PGlite always; PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set). Ends with one line,
 * `N passed, N failed`, counting tests plus the lint and type checks.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isClientBuildCurrent } from '../server/src/tools/client-build';
import { ARTIFACTS, runGroup, tapFiles } from './node-tests';

const ROOT = path.resolve(__dirname, '..');

interface StageResult {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
}

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

interface Command {
  label: string;
  args: string[];
}

/** One command's outcome in a lane: its exit status, what it printed, and how long it took. */
interface LaneResult {
  status: number;
  output: string;
  seconds: number;
}

function runCaptured({ args: [command, ...args] }: Command): Promise<LaneResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command!, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ status: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

/**
 * Runs `commands` in `lanes` lanes, longest first as listed, printing each one's output whole when
 * it ends. eslint, tsc, knip and prettier use one core each, so one after another left the
 * machine's second core idle for the two minutes they take (measured: lint 44 s + types 46 s on two
 * cores, one of them idle).
 */
async function inLanes(commands: Command[], lanes = 2): Promise<Map<string, LaneResult>> {
  const results = new Map<string, LaneResult>();
  const queue = [...commands];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await runCaptured(next);
      process.stdout.write(
        `\n--- ${next.label} (${result.seconds.toFixed(1)} s, exit ${result.status}) ---\n${result.output}`,
      );
      results.set(next.label, result);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

function tapCounts(file: string): { passed: number; failed: number } | undefined {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { passed: count('pass'), failed: count('fail') + count('cancelled') };
}

function jestCounts(file: string): { passed: number; failed: number } | undefined {
  if (!fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numRuntimeErrorTestSuites: number;
  };
  return { passed: report.numPassedTests, failed: report.numFailedTests + report.numRuntimeErrorTestSuites };
}

async function stage(
  name: string,
  body: () => { passed: number; failed: number } | Promise<{ passed: number; failed: number }>,
): Promise<StageResult> {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const counts = await body();
  const result = { name, ...counts, seconds: (Date.now() - started) / 1000 };
  process.stdout.write(
    `--- ${name}: ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s)\n`,
  );
  return result;
}

/** A check with no test count of its own (lint, types) counts as one test. */
const check = (status: number) => (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

async function nodeGroup(name: string) {
  const status = await runGroup(name);
  const counts = { passed: 0, failed: 0 };
  for (const part of tapFiles(name).map(tapCounts)) {
    counts.passed += part?.passed ?? 0;
    counts.failed += part?.failed ?? 0;
  }
  // A crash before any test reported (syntax error, missing file) must still fail the run.
  return status !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const jestReport = path.join(ARTIFACTS, 'jest.json');
  fs.rmSync(jestReport, { force: true });
  const distDir = path.join(ROOT, 'dist');
  // The static checks, and the client build the browser tests serve (built here once, so that
  // browser test files running side by side never build it twice into one folder).
  process.stdout.write('\n=== lint, types, client build (two at a time) ===\n');
  const started = Date.now();
  const lanes = await inLanes([
    ...(isClientBuildCurrent(distDir)
      ? []
      : [{ label: 'build', args: ['npx', 'webpack', '--mode', 'production', '--output-path', distDir] }]),
    { label: 'eslint', args: ['npx', 'eslint', '.', '--max-warnings', '0'] },
    { label: 'tsc client', args: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
    { label: 'tsc server', args: ['npx', 'tsc', '--noEmit', '-p', 'server/tsconfig.json'] },
    // knip: no unused file, export or dependency (knip.jsonc says what the entries are).
    { label: 'knip', args: ['npx', 'knip', '--no-progress'] },
    { label: 'prettier', args: ['npx', 'prettier', '--check', '.'] },
  ]);
  const wall = (Date.now() - started) / 1000;
  const laneStage = (name: string, labels: string[]): StageResult => {
    const parts = labels.flatMap((label) => lanes.get(label) ?? []);
    const counts = check(parts.some((part) => part.status !== 0) ? 1 : 0);
    const result = { name, ...counts, seconds: parts.reduce((sum, part) => sum + part.seconds, 0) };
    process.stdout.write(
      `--- ${name}: ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s of commands)\n`,
    );
    return result;
  };
  const results: StageResult[] = [
    laneStage('lint', ['eslint', 'knip', 'prettier']),
    laneStage('types', ['tsc client', 'tsc server']),
    ...(lanes.has('build') ? [laneStage('build', ['build'])] : []),
  ];
  process.stdout.write(`--- lint, types and build took ${wall.toFixed(1)} s in all\n`);
  results.push(
    await stage('contract', () => nodeGroup('contract')),
    await stage('client unit', () => {
      // Two workers: jest's default on 2 cores is one.
      const status = run('npx', ['jest', '--ci', '--maxWorkers=2', '--json', `--outputFile=${jestReport}`]);
      const counts = jestCounts(jestReport) ?? { passed: 0, failed: 0 };
      return status !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
    }),
    await stage('server', () => nodeGroup('server')),
    await stage('end-to-end', () => nodeGroup('e2e')),
  );
  process.stdout.write('\n=== summary ===\n');
  for (const result of results) {
    process.stdout.write(
      `${result.name.padEnd(12)} ${String(result.passed).padStart(4)} passed ${String(result.failed).padStart(3)} failed  ${result.seconds.toFixed(1)} s\n`,
    );
  }
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  const summary = `${passed} passed, ${failed} failed`;
  fs.writeFileSync(path.join(ARTIFACTS, 'summary.txt'), `${summary}\n`);
  process.stdout.write(`${summary}\n`);
  process.exit(failed === 0 ? 0 : 1);
}

void main();
