/**
 * `npm test`: every check the project has, in order, on whatever engines the machine offers
 * (PGlite always; PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set). Ends with one line,
 * `N passed, N failed`, counting tests plus the lint and type checks.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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

function stage(name: string, body: () => { passed: number; failed: number }): StageResult {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const counts = body();
  const result = { name, ...counts, seconds: (Date.now() - started) / 1000 };
  process.stdout.write(
    `--- ${name}: ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s)\n`,
  );
  return result;
}

/** A check with no test count of its own (lint, types) counts as one test. */
const check = (status: number) => (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

function nodeGroup(name: string) {
  const status = runGroup(name);
  const counts = { passed: 0, failed: 0 };
  for (const part of tapFiles(name).map(tapCounts)) {
    counts.passed += part?.passed ?? 0;
    counts.failed += part?.failed ?? 0;
  }
  // A crash before any test reported (syntax error, missing file) must still fail the run.
  return status !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const jestReport = path.join(ARTIFACTS, 'jest.json');
  fs.rmSync(jestReport, { force: true });
  const results: StageResult[] = [
    // knip: no unused file, export or dependency (knip.json says what the entries are).
    stage('lint', () =>
      check(
        run('npx', ['eslint', '.', '--max-warnings', '0']) ||
          run('npx', ['knip', '--no-progress']) ||
          run('npx', ['prettier', '--check', '.']),
      ),
    ),
    stage('types', () =>
      check(
        run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) ||
          run('npx', ['tsc', '--noEmit', '-p', 'server/tsconfig.json']),
      ),
    ),
    stage('contract', () => nodeGroup('contract')),
    stage('client unit', () => {
      // Two workers: jest's default on 2 cores is one.
      const status = run('npx', ['jest', '--ci', '--maxWorkers=2', '--json', `--outputFile=${jestReport}`]);
      const counts = jestCounts(jestReport) ?? { passed: 0, failed: 0 };
      return status !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
    }),
    stage('server', () => nodeGroup('server')),
    stage('end-to-end', () => nodeGroup('e2e')),
  ];
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

main();
