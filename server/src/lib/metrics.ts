import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a cached read (milliseconds) to a slow export (seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/**
 * CPU, memory, event-loop lag, GC and handles describe the process, not an app: they live in one
 * registry per process (never prom-client's global default one), created on first use. Tests build
 * many apps in one process; each app collecting them again would add a GC observer and an
 * event-loop monitor per app that are never removed.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The platform's Prometheus metrics, one set per app (`app.metrics`). Other modules report through
 * these objects (or through events the metrics plugin listens to); nothing here reads the database
 * except the instances gauge, whose count the instances module hands in.
 */
export class PlatformMetrics {
  readonly registry = new Registry();

  /** By route pattern (`/api/game/:id/scoreboard`), never the raw URL: ids would explode the series. */
  readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly submissionsAcknowledged = new Counter({
    name: 'gzctf_submissions_acknowledged_total',
    help: 'Flag submissions stored as FlagSubmitted and acknowledged to the player by this instance.',
    registers: [this.registry],
  });

  readonly submissionsJudged = new Counter({
    name: 'gzctf_submissions_judged_total',
    help: 'Flag submissions judged by this instance, by result.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly judgeLag = new Histogram({
    name: 'gzctf_judge_lag_seconds',
    help: 'Time from a submission being stored to its judgement committing.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly hubConnections = new Gauge({
    name: 'gzctf_hub_connections',
    help: 'Open realtime hub WebSockets on this instance, by hub.',
    labelNames: ['hub'] as const,
    registers: [this.registry],
  });

  readonly scoreboardBuild = new Histogram({
    name: 'gzctf_scoreboard_build_seconds',
    help: 'Time to compute and store one game scoreboard (both views).',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  /** Read at scrape time from `countRunningInstances`; the same platform-wide figure on every instance. */
  readonly instancesRunning: Gauge;

  /** Set by the metrics plugin once the instances module is up. */
  countRunningInstances: (() => Promise<number>) | undefined;

  constructor(onCollectError: (error: unknown) => void = () => {}) {
    const count = () => this.countRunningInstances?.();
    this.instancesRunning = new Gauge({
      name: 'gzctf_instances_running',
      help: 'Challenge containers running on the platform (all instances).',
      registers: [this.registry],
      async collect() {
        // A database that does not answer leaves the last figure; /readyz reports the outage.
        try {
          const running = await count();
          if (running !== undefined) this.set(running);
        } catch (error) {
          onCollectError(error);
        }
      },
    });
  }

  readonly contentType = this.registry.contentType;

  /** The exposition text: this app's metrics, then the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${process}`;
  }
}
