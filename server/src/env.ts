import path from 'node:path';
import { z } from 'zod';

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

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().trim().url().optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DIST_DIR: z.string().trim().min(1).default('./dist'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT_MAPPING: z.enum(['Default', 'PlatformProxy']).default('Default'),
});

export type EnvInput = z.input<typeof envSchema>;

export interface Env {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  distDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How players reach challenge containers: published host ports, or the platform's WebSocket proxy. */
  portMapping: 'Default' | 'PlatformProxy';
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
    logLevel: value.LOG_LEVEL,
    portMapping: value.PORT_MAPPING,
  };
}
