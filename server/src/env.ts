import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { passwordProblem } from './lib/password';

/**
 * The only reader of `process.env`. Every setting the server understands is declared here with its
 * default, so a fresh clone starts with zero configuration (PGlite in ./data, in-process cache).
 */
const optionalUrl = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || protocols.some((protocol) => value.startsWith(`${protocol}://`)), {
      message: `must start with ${protocols.map((protocol) => `${protocol}://`).join(' or ')}`,
    });

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

/**
 * The deployment templates (deploy/kubernetes/secret.yaml) hold `change-me…` where a secret goes:
 * applied as shipped, the Admin's password and the metrics token would be known to everyone.
 */
const notPlaceholder = (value: string | undefined) => value === undefined || !/change-me/i.test(value);
const PLACEHOLDER = {
  message: "still holds the deployment template's change-me placeholder: set a secret of your own",
};

// `true/false`, `1/0`, `yes/no`, `on/off`; empty means the default.
const flag = (defaultValue: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return defaultValue;
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off'].includes(value)) return false;
      context.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

const list = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

const MIB = 1024 * 1024;

const CIDR = /^(\d{1,3})(\.\d{1,3}){3}\/\d{1,2}$/;

const REGISTRY_HOST = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/;

/**
 * CONTAINER_REGISTRIES: JSON, by registry host (`docker.io` for Docker Hub) the user name and
 * password (or token) images from it are pulled with, as GZCTF's `Registries`. The messages never
 * repeat a value: they may hold a password.
 */
const registries = z
  .string()
  .trim()
  .default('')
  .transform((value, context): RegistryCredentials[] => {
    if (value === '') return [];
    const problem = (message: string) => {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return problem('must be JSON such as {"registry.example.com": {"userName": "ctf", "password": "…"}}');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return problem('must be a JSON object keyed by registry host');
    const entries: RegistryCredentials[] = [];
    for (const [host, credentials] of Object.entries(parsed)) {
      const { userName, password } = (credentials ?? {}) as { userName?: unknown; password?: unknown };
      if (!REGISTRY_HOST.test(host.toLowerCase()))
        return problem(`has a key that is not a registry host such as registry.example.com:5000`);
      if (typeof userName !== 'string' || userName === '' || typeof password !== 'string' || password === '')
        return problem(`needs a non-empty "userName" and "password" string for each registry`);
      entries.push({ host: host.toLowerCase(), userName, password });
    }
    return entries;
  });

/**
 * Where challenge containers may not connect by default: private networks (the platform's own hosts,
 * its database and cache), link-local (cloud metadata services) and carrier-grade NAT.
 */
export const DEFAULT_BLOCKED_CIDRS = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '100.64.0.0/10',
] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().trim().url().optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DIST_DIR: z.string().trim().min(1).default('./dist'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  // Put before every Redis key and channel name, so several platforms (or parallel tests) can share one Redis.
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:_.-]{0,64}$/, 'must be up to 64 letters, digits or : _ . -')
    .default('gzctf:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT_MAPPING: z.enum(['Default', 'PlatformProxy']).default('Default'),
  // `true` trusts every proxy; otherwise a comma-separated list of proxy addresses or CIDR ranges.
  TRUST_PROXY: z.string().trim().optional(),
  ADMIN_PASSWORD: optionalString
    .refine((value) => value === undefined || passwordProblem(value) === undefined, {
      message: 'needs at least 6 characters with a digit, a lower-case and an upper-case letter',
    })
    .refine(notPlaceholder, PLACEHOLDER),
  COOKIE_SECURE: flag(false),
  DISABLE_RATE_LIMIT: flag(false),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: flag(false).optional(),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_FROM: optionalString,
  SMTP_BYPASS_CERT_VERIFY: flag(false),
  CAPTCHA_PROVIDER: z.enum(['None', 'HashPow', 'CloudflareTurnstile']).default('None'),
  CAPTCHA_SITE_KEY: z.string().trim().default(''),
  TURNSTILE_SECRET: optionalString,
  TURNSTILE_VERIFY_URL: z.string().trim().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  HASHPOW_DIFFICULTY: z.coerce.number().int().min(8).max(48).default(18),
  // Not trimmed: every byte of the key is part of the XOR.
  XOR_KEY: optionalString.refine(notPlaceholder, PLACEHOLDER),
  // Empty: Docker when the engine answers at start, else None.
  CONTAINER_PROVIDER: z.enum(['Docker', 'Kubernetes', 'None', '']).optional(),
  CONTAINER_PUBLIC_ENTRY: optionalString,
  TRAFFIC_CAPTURE: flag(false),
  // Players decide how much a proxied connection carries: these keep the data volume and the memory safe.
  CAPTURE_MAX_FILE_MB: z.coerce.number().int().min(1).max(65_536).default(32),
  CAPTURE_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_048_576).default(1024),
  PROXY_MEMORY_MB: z.coerce.number().int().min(16).max(65_536).default(128),
  CONTAINER_NETWORK: z
    .string()
    .trim()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/, 'must be a Docker network name')
    .default('gzctf-challenges'),
  CONTAINER_START_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  CONTAINER_BLOCKED_CIDRS: z
    .string()
    .trim()
    .default(DEFAULT_BLOCKED_CIDRS.join(','))
    .refine((value) => value === '' || value.split(',').every((cidr) => CIDR.test(cidr.trim())), {
      message: 'must be comma-separated IPv4 CIDR ranges such as 10.0.0.0/8',
    }),
  CONTAINER_FIREWALL: flag(true),
  CONTAINER_REGISTRIES: registries,
  DOCKER_HOST: z
    .string()
    .trim()
    .default('unix:///var/run/docker.sock')
    .refine((value) => /^(unix|tcp|http|https|ssh):\/\/./.test(value), {
      message: 'must be unix:///path, tcp://host:port, http(s)://host:port or ssh://user@host',
    }),
  DOCKER_CERT_PATH: optionalString,
  DOCKER_PUBLISH_PROXY_PORTS: flag(false).optional(),
  KUBERNETES_NAMESPACE: z
    .string()
    .trim()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')
    .default('gzctf-challenges'),
  KUBECONFIG: optionalString,
  KUBERNETES_DNS: z.string().trim().default('1.1.1.1,8.8.8.8'),
  // Not trimmed: the token is compared byte for byte with the scraper's `Authorization: Bearer`.
  METRICS_TOKEN: optionalString
    .refine((value) => value === undefined || value.length >= 16, {
      message: 'must be at least 16 characters (it is the only thing between /metrics and the public)',
    })
    .refine(notPlaceholder, PLACEHOLDER),
  METRICS_ALLOW: z
    .string()
    .trim()
    .default('')
    .refine((value) => list(value).every((entry) => ipRange(entry) !== undefined), {
      message: 'must be comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8 or ::1',
    }),
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(25),
});

/** Every variable the server reads (deployment files are checked against it). */
export const ENV_KEYS: readonly string[] = Object.keys(envSchema.shape);

export interface Env {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  distDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How players reach challenge containers: published host ports, or the platform's WebSocket proxy. */
  portMapping: 'Default' | 'PlatformProxy';
  /** Fastify's `trustProxy`: whose X-Forwarded-For/-Proto to believe (client IP, HTTPS detection). */
  trustProxy: boolean | string[];
  /** Password of the `Admin` user created at start when no user of that name exists. */
  adminPassword: string | undefined;
  /** Always mark the session cookie `Secure` (it is anyway when the request came over HTTPS). */
  cookieSecure: boolean;
  disableRateLimit: boolean;
  /** Without a host, mails are written to the log instead of sent. */
  smtp: SmtpSettings | undefined;
  captcha: CaptchaSettings;
  /**
   * XOR-ed over each game's private key before it is stored (GZCTF's XorKey), so a database dump alone
   * cannot sign team tokens. Changing it later makes existing games' keys unreadable.
   */
  xorKey: string | undefined;
  containers: ContainerSettings;
  metrics: MetricsSettings;
  /** Seconds a graceful shutdown (SIGTERM/SIGINT) may take before the process exits anyway. */
  shutdownTimeoutSeconds: number;
}

export interface MetricsSettings {
  /** A scraper sending `Authorization: Bearer <token>` may read /metrics. */
  token: string | undefined;
  /** Client addresses (after TRUST_PROXY) that may read /metrics without the token. */
  allow: IpRange[];
}

/** One METRICS_ALLOW entry: an address (prefix = full length) or a CIDR range. */
export interface IpRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export type ContainerProvider = 'Docker' | 'Kubernetes' | 'None';

export interface ContainerSettings {
  /** Undefined: Docker when the engine answers at start, else None. */
  provider: ContainerProvider | undefined;
  /** The host players are shown for `Default` port mapping. */
  publicEntry: string;
  /** Record proxied traffic of challenges that ask for it (PlatformProxy only). */
  trafficCapture: boolean;
  /** Bounds of traffic capture: one connection's file, and the free space it leaves on the data volume. */
  capture: { maxFileBytes: number; minFreeBytes: number };
  /** Bytes all proxy sessions together may hold (buffers, capture queues) before each keeps to a small share. */
  proxyMemoryBytes: number;
  /** The Docker network challenge containers join (created with inter-container traffic off). */
  network: string;
  /** Container starts running at once, across all platform instances; the rest wait their turn. */
  startConcurrency: number;
  /** Destinations challenge containers may not open connections to (besides the platform's host). */
  blockedCidrs: string[];
  /** Install the host firewall rules that keep containers off the platform's host (Docker, local engine). */
  firewall: boolean;
  /** Private registries' credentials, by host; images from other registries are pulled anonymously. */
  registries: RegistryCredentials[];
  docker: DockerSettings;
  kubernetes: KubernetesSettings;
}

export interface RegistryCredentials {
  /** As in image names: `registry.example.com`, `localhost:5000`; `docker.io` for Docker Hub. */
  host: string;
  userName: string;
  password: string;
}

export interface DockerSettings {
  /** `unix:///var/run/docker.sock`, `tcp://host:2375`, `https://host:2376` or `ssh://user@host`. */
  host: string;
  /** TLS client files (ca.pem, cert.pem, key.pem) for a tcp/https engine. */
  certPath: string | undefined;
  /**
   * Publish the port of proxied containers too, so the proxy can dial the engine's host when the
   * container network is not reachable from the platform (an engine on another host).
   */
  publishProxyPorts: boolean;
}

export interface KubernetesSettings {
  namespace: string;
  /** A kubeconfig file; without it the in-cluster service account is used. */
  kubeconfig: string | undefined;
  /** Name servers of challenge pods (cluster DNS lives in a blocked range). */
  dns: string[];
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
  bypassCertVerify: boolean;
}

export type CaptchaProvider = 'None' | 'HashPow' | 'CloudflareTurnstile';

export interface CaptchaSettings {
  provider: CaptchaProvider;
  siteKey: string;
  turnstileSecret: string | undefined;
  turnstileVerifyUrl: string;
  /** Leading zero bits a HashPow answer needs (GZCTF clamps to 8–48, default 18). */
  hashPowDifficulty: number;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses settings; throws an EnvError listing every bad variable by name. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const value = parsed.data;
  return {
    nodeEnv: value.NODE_ENV,
    host: value.HOST,
    port: value.PORT,
    publicUrl: value.PUBLIC_URL,
    dataDir: path.resolve(value.DATA_DIR),
    distDir: path.resolve(value.DIST_DIR),
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    redisKeyPrefix: value.REDIS_KEY_PREFIX,
    logLevel: value.LOG_LEVEL,
    portMapping: value.PORT_MAPPING,
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    adminPassword: value.ADMIN_PASSWORD,
    cookieSecure: value.COOKIE_SECURE,
    disableRateLimit: value.DISABLE_RATE_LIMIT,
    smtp: value.SMTP_HOST
      ? {
          host: value.SMTP_HOST,
          port: value.SMTP_PORT,
          secure: value.SMTP_SECURE ?? value.SMTP_PORT === 465,
          user: value.SMTP_USER,
          password: value.SMTP_PASSWORD,
          from: value.SMTP_FROM ?? value.SMTP_USER ?? 'noreply@localhost',
          bypassCertVerify: value.SMTP_BYPASS_CERT_VERIFY,
        }
      : undefined,
    captcha: {
      provider: value.CAPTCHA_PROVIDER,
      siteKey: value.CAPTCHA_SITE_KEY,
      turnstileSecret: value.TURNSTILE_SECRET,
      turnstileVerifyUrl: value.TURNSTILE_VERIFY_URL,
      hashPowDifficulty: value.HASHPOW_DIFFICULTY,
    },
    xorKey: value.XOR_KEY,
    containers: {
      provider: value.CONTAINER_PROVIDER || undefined,
      publicEntry: value.CONTAINER_PUBLIC_ENTRY ?? hostOf(value.PUBLIC_URL) ?? 'localhost',
      trafficCapture: value.TRAFFIC_CAPTURE,
      capture: { maxFileBytes: value.CAPTURE_MAX_FILE_MB * MIB, minFreeBytes: value.CAPTURE_MIN_FREE_MB * MIB },
      proxyMemoryBytes: value.PROXY_MEMORY_MB * MIB,
      network: value.CONTAINER_NETWORK,
      startConcurrency: value.CONTAINER_START_CONCURRENCY,
      blockedCidrs: list(value.CONTAINER_BLOCKED_CIDRS),
      firewall: value.CONTAINER_FIREWALL,
      registries: value.CONTAINER_REGISTRIES,
      docker: {
        host: value.DOCKER_HOST,
        certPath: value.DOCKER_CERT_PATH,
        publishProxyPorts: value.DOCKER_PUBLISH_PROXY_PORTS ?? !value.DOCKER_HOST.startsWith('unix://'),
      },
      kubernetes: {
        namespace: value.KUBERNETES_NAMESPACE,
        kubeconfig: value.KUBECONFIG,
        dns: list(value.KUBERNETES_DNS),
      },
    },
    metrics: {
      token: value.METRICS_TOKEN,
      allow: list(value.METRICS_ALLOW).map((entry) => ipRange(entry)!),
    },
    shutdownTimeoutSeconds: value.SHUTDOWN_TIMEOUT,
  };
}

function ipRange(entry: string): IpRange | undefined {
  const [address = '', prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(bits)) || prefix > bits) return undefined;
  return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const { hostname } = new URL(url);
  // URL keeps IPv6 hosts in brackets; an entry is written host:port, so they stay.
  return hostname || undefined;
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === '' || /^(false|0|no|off)$/i.test(value)) return false;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
