/**
 * `npm run api:coverage`: how much of the contract the server implements. Operations without a
 * handler answer 501; this lists them by tag so the remaining work is visible.
 */
import { listOperations, loadContract } from '../contract/contract';
import { handlers } from '../routes/handlers';

// Plain routes (hubs, probes, files) are served by their own plugins, never by a handler here.
const operations = listOperations(loadContract()).filter((operation) => !operation.plainRoute);
const built = new Set(Object.keys(handlers));
const byTag = new Map<string, { done: number; total: number; missing: string[] }>();
for (const operation of operations) {
  const entry = byTag.get(operation.tag) ?? { done: 0, total: 0, missing: [] };
  entry.total += 1;
  if (built.has(operation.operationId)) entry.done += 1;
  else entry.missing.push(`${operation.method.toUpperCase()} ${operation.path} (${operation.operationId})`);
  byTag.set(operation.tag, entry);
}

const lines: string[] = [];
for (const [tag, entry] of [...byTag].sort(([a], [b]) => a.localeCompare(b))) {
  lines.push(`${tag.padEnd(8)} ${String(entry.done).padStart(3)}/${entry.total}`);
  for (const missing of entry.missing) lines.push(`           not built: ${missing}`);
}
const done = operations.filter((operation) => built.has(operation.operationId)).length;
lines.push(`\nimplemented ${done}/${operations.length} operations`);
process.stdout.write(`${lines.join('\n')}\n`);
