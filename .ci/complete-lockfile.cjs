#!/usr/bin/env node
// The npm registry reachable here only carries the linux-x64 builds of packages that ship native
// binaries as optional per-platform dependencies (@swc/core-darwin-arm64 and the like). `npm install`
// skips the missing ones and leaves them out of package-lock.json, and then `npm ci` refuses the lock
// ("Missing: @swc/core-darwin-arm64@ from lock file"). This adds an entry for each such optional
// dependency, marked optional and with the os/cpu its name announces, so `npm ci` accepts the lock and
// skips them on this platform, exactly as it would with a complete registry.
// Run after every `npm install` that changes the lock: `node .ci/complete-lockfile.cjs` (`--check` only
// reports; a contract test runs it).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OSES = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'android', 'sunos', 'aix', 'openharmony'];
const CPUS = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const words = name.replace(/^@[^/]+\//, '').split(/[-_]/);
  const os = OSES.filter((candidate) => words.includes(candidate));
  const cpu = CPUS.filter((candidate) => words.includes(candidate));
  return { os, cpu };
}

// Where node's resolution would look for `name` from the package at `from`.
function resolvable(from, name) {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!base) return false;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvable(location, name)) continue;
    const { os, cpu } = platformOf(name);
    const key = `${location ? `${location}/` : ''}node_modules/${name}`;
    packages[key] = {
      version: range.replace(/^[\^~=]/, ''),
      optional: true,
      ...(os.length ? { os } : {}),
      ...(cpu.length ? { cpu } : {}),
    };
    added += 1;
  }
}

if (process.argv.includes('--check')) {
  if (added > 0) {
    process.stderr.write(
      `package-lock.json lacks ${added} optional platform entries; run node .ci/complete-lockfile.cjs\n`,
    );
    process.exit(1);
  }
  process.exit(0);
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`package-lock.json: added ${added} optional platform entries\n`);
