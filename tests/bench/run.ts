/**
 * `npm run bench`: performance figures, printed, never asserted (architecture §6.8). Each bench
 * returns lines of text; run one with `npm run bench -- <name>`.
 */
import { benchAccount } from './account';
import { benchBundle } from './bundle';
import { benchContainers } from './containers';
import { benchGame } from './game';
import { benchLists } from './lists';
import { benchStartup } from './startup';

const BENCHES: Record<string, () => Promise<string[]>> = {
  startup: benchStartup,
  bundle: benchBundle,
  account: benchAccount,
  game: benchGame,
  lists: benchLists,
  containers: benchContainers,
};

async function main() {
  const only = process.argv.slice(2);
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (only.length > 0 && !only.includes(name)) continue;
    process.stdout.write(`\n== ${name} ==\n`);
    for (const line of await bench()) process.stdout.write(`${line}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
