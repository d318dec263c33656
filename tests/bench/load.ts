/**
 * A small HTTP load generator, run as its own process so it does not share an event loop with the
 * server it measures. Reads a JSON job from the file named by argv[2]; keeps `connections` requests in flight over
 * keep-alive sockets, cycling through `targets`, until `requests` are done or `durationMs` passes;
 * prints `{ count, errors, seconds, rps, p50, p99 }` (latencies in ms) as JSON on stdout.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface LoadTarget {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadJob {
  origin: string;
  targets: LoadTarget[];
  connections: number;
  requests?: number;
  durationMs?: number;
  /** Statuses that count as answered (default: any 2xx); a revalidation expects 304. */
  okStatus?: number[];
}

export interface LoadResult {
  count: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Mean body bytes per answer as sent (compressed when the server compressed it). */
  bytes: number;
  /** When the first request went out, in Unix ms (one clock for every process on the machine). */
  startedAt: number;
}

function once(agent: http.Agent, origin: URL, target: LoadTarget, sizes: { bytes: number }): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: target.method,
        path: target.path,
        headers: { ...(target.body ? { 'content-type': 'application/json' } : {}), ...target.headers },
      },
      (response) => {
        // Counted as received, never decoded: the figure is what went over the wire.
        response.on('data', (chunk: Buffer) => (sizes.bytes += chunk.length));
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(target.body);
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const origin = new URL(job.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const sizes = { bytes: 0 };
  const ok = (status: number) => (job.okStatus ? job.okStatus.includes(status) : status >= 200 && status < 300);
  const startedAt = performance.timeOrigin + performance.now();
  const started = process.hrtime.bigint();
  const deadline = Date.now() + (job.durationMs ?? 3_600_000);
  const limit = job.requests ?? Number.POSITIVE_INFINITY;
  const worker = async () => {
    while (issued < limit && Date.now() < deadline) {
      const target = job.targets[issued % job.targets.length]!;
      issued += 1;
      const begin = process.hrtime.bigint();
      const status = await once(agent, origin, target, sizes).catch(() => 0);
      latencies.push(Number(process.hrtime.bigint() - begin) / 1e6);
      if (!ok(status)) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: job.connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    count: latencies.length,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    bytes: latencies.length ? sizes.bytes / latencies.length : 0,
    startedAt,
  };
}

/**
 * Warms this process up against a throwaway server of its own before the measured run, so a short
 * run (a thousand requests) measures the server under test and not the generator's cold start
 * (its HTTP client still interpreted, not yet compiled). The server under test sees none of it.
 */
async function warmUp(job: LoadJob): Promise<void> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await run({
    origin: `http://127.0.0.1:${port}`,
    targets: job.targets.slice(0, 50).map((target) => ({ ...target })),
    connections: job.connections,
    requests: 3000,
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

if (require.main === module) {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadJob;
  warmUp(job)
    .then(() => run(job))
    .then(
      (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      },
    );
}
