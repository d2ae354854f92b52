import { z } from 'zod';
import path from 'node:path';
import { CRASH_POINTS, type CrashPoint } from './lib/crash-point';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must start with sk_').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must start with pk_').optional(),
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** The signing secret of the webhook endpoint (decision 0084); only with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Paddock <no-reply@paddock.local>'),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  CONNECTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** After SIGTERM, requests in flight get this long to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  /** …and idle kept-alive connections stay open this long, for a load balancer to see it down. */
  SHUTDOWN_IDLE_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(2),
  BODY_LIMIT_KB: z.coerce.number().int().min(16).max(102_400).default(1024),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  /** The Assetto Corsa dedicated server binary; unset: Paddock runs no AC server. */
  AC_SERVER_PATH: z.string().optional(),
  /** Writes each dedicated server's raw live feed to this folder, to play back (decision 0122). */
  FEED_RECORD_DIR: z.string().optional(),
  /** The rig agent executable rigs update themselves to, with its build.json beside it
   *  (decision 0121); default: what `npm run package:rig` built. */
  RIG_AGENT_BUILD: z.string().optional(),
  /** The address acServer sends plugin messages to (Paddock's, as acServer reaches it), and the
   *  host Paddock sends commands to (acServer runs on the same machine by default). */
  AC_PLUGIN_HOST: z.string().default('127.0.0.1'),
  AC_SERVER_HOST: z.string().default('127.0.0.1'),
  /** First ports; the n-th server running at once uses each plus n. */
  AC_SERVER_PORT: z.coerce.number().int().min(1).max(65535).default(9600),
  AC_SERVER_HTTP_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  AC_SERVER_PLUGIN_PORT: z.coerce.number().int().min(1).max(65535).default(11000),
  /** Where Paddock listens for plugin messages; 0: any free port (tests). */
  AC_PLUGIN_PORT: z.coerce.number().int().min(0).max(65535).default(12000),
  /** The ACC dedicated server binary (accServer.exe, its cfg/ and results/ beside it); unset:
   *  Paddock runs no ACC server (docs/decisions/0090). */
  ACC_SERVER_PATH: z.string().optional(),
  /** The address the rigs reach accServer on, and its first TCP port (UDP is TCP - 1). */
  ACC_SERVER_HOST: z.string().default('127.0.0.1'),
  ACC_SERVER_PORT: z.coerce.number().int().min(2).max(65535).default(9232),
  /** The broadcasting endpoint of the party's ACC (a seat's or a spectator's game), its
   *  broadcasting.json port and connection password. */
  ACC_BROADCAST_HOST: z.string().default('127.0.0.1'),
  ACC_BROADCAST_PORT: z.coerce.number().int().min(1).max(65535).default(9000),
  ACC_BROADCAST_PASSWORD: z.string().default('paddock'),
  /** Largest image staff may upload (docs/decisions/0041). */
  IMAGE_MAX_KB: z.coerce.number().int().min(1).max(102_400).default(5120),
  /** S3-compatible image storage; unset: images are kept on disk under DATA_DIR/images. */
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PREFIX: z.string().default('images/'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  /** Turns `/metrics` on, for this bearer token only (docs/decisions/0074). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** A checkout left claimed this long is the money repair's to finish (decision 0072). */
  MONEY_REPAIR_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  MONEY_REPAIR_EVERY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Tests only: the process kills itself at this step of a checkout (decision 0072). */
  CHECKOUT_CRASH_AT: z.enum(CRASH_POINTS).optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  jwtTtlSeconds: number;
  stripe:
    | {
        secretKey: string;
        publishableKey: string | null;
        host?: string;
        port?: number;
        protocol?: 'http' | 'https';
        /** Unset: the webhook route answers 404 (decision 0084). */
        webhookSecret?: string;
      }
    | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  logLevel: string;
  /** Seed the demo venue into an empty database (default: only on the embedded PostgreSQL). */
  seedDemo: boolean;
  /** Demo accounts get random passwords, printed once (a demo on a real database). */
  demoRandomPasswords: boolean;
  /** Seconds a connection may sit idle, and a request may take to arrive in full. */
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  /** SIGTERM: how long requests in flight may take to finish (decision 0080). */
  shutdownTimeoutMs: number;
  shutdownIdleWaitMs: number;
  bodyLimitBytes: number;
  /** Login attempts per IP and username per minute (signup, login links: see accounts routes). */
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits use it). */
  trustProxy: boolean;
  authRateLimitPerMinute: number;
  /** The AC dedicated server link (docs/decisions/0031); undefined when AC_SERVER_PATH is unset. */
  acServer:
    | {
        path: string;
        pluginHost: string;
        serverHost: string;
        ports: { game: number; http: number; serverPlugin: number; plugin: number };
      }
    | undefined;
  /** Where the servers' raw live feeds are recorded (decision 0122); undefined: not recorded. */
  feedRecordDir: string | undefined;
  /** The rig agent executable the server ships to rigs (decision 0121). */
  rigAgentBuild: string;
  /** The ACC dedicated server link (docs/decisions/0090); undefined when ACC_SERVER_PATH is unset. */
  accServer:
    | {
        path: string;
        serverHost: string;
        tcpPort: number;
        broadcast: { host: string; port: number; password: string };
      }
    | undefined;
  images: { maxBytes: number; s3: S3Config | undefined };
  /** `/metrics` answers this bearer token; undefined: `/metrics` is off. */
  metricsToken: string | undefined;
  moneyRepair: { afterMs: number; everySeconds: number };
  /** Only the crash test sets it; never in production (decision 0072). */
  checkoutCrashAt: CrashPoint | undefined;
};

/** Where images go when S3-compatible storage is configured (docs/decisions/0041). */
export type S3Config = {
  bucket: string;
  /** Unset: AWS itself; else MinIO, R2, Spaces… */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's default credential chain (instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  prefix: string;
  forcePathStyle: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment once; every bad variable is named in one error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new ConfigError(
      'Invalid environment:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither',
    );
  // A signing secret without Stripe would leave the webhook silently off: say so at start.
  if (e.STRIPE_WEBHOOK_SECRET && !e.STRIPE_SECRET_KEY)
    throw new ConfigError(
      'Invalid environment:\n  STRIPE_WEBHOOK_SECRET: set STRIPE_SECRET_KEY too, or neither',
    );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    // The embedded default is a laptop demo: reachable from this machine only unless HOST says.
    host: e.HOST ?? (e.DATABASE_URL ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    jwtSecret: e.JWT_SECRET,
    jwtTtlSeconds: Math.round(e.JWT_TTL_HOURS * 3600),
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? null,
          host: e.STRIPE_API_HOST,
          port: e.STRIPE_API_PORT,
          protocol: e.STRIPE_API_PROTOCOL,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
        }
      : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    // Never the demo's well-known logins on a real database unless asked for, and then random.
    seedDemo: e.SEED_DEMO ? e.SEED_DEMO === 'true' : !e.DATABASE_URL,
    demoRandomPasswords: Boolean(e.DATABASE_URL),
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    shutdownTimeoutMs: Math.round(e.SHUTDOWN_TIMEOUT_SECONDS * 1000),
    shutdownIdleWaitMs: Math.round(e.SHUTDOWN_IDLE_WAIT_SECONDS * 1000),
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    trustProxy: e.TRUST_PROXY === 'true',
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    moneyRepair: {
      afterMs: e.MONEY_REPAIR_AFTER_SECONDS * 1000,
      everySeconds: e.MONEY_REPAIR_EVERY_SECONDS,
    },
    checkoutCrashAt: e.CHECKOUT_CRASH_AT,
    acServer: e.AC_SERVER_PATH
      ? {
          path: path.resolve(e.AC_SERVER_PATH),
          pluginHost: e.AC_PLUGIN_HOST,
          serverHost: e.AC_SERVER_HOST,
          ports: {
            game: e.AC_SERVER_PORT,
            http: e.AC_SERVER_HTTP_PORT,
            serverPlugin: e.AC_SERVER_PLUGIN_PORT,
            plugin: e.AC_PLUGIN_PORT,
          },
        }
      : undefined,
    feedRecordDir: e.FEED_RECORD_DIR ? path.resolve(e.FEED_RECORD_DIR) : undefined,
    rigAgentBuild: path.resolve(
      e.RIG_AGENT_BUILD ?? path.join(import.meta.dirname, '../../rig-agent/dist/paddock-rig.exe'),
    ),
    accServer: e.ACC_SERVER_PATH
      ? {
          path: path.resolve(e.ACC_SERVER_PATH),
          serverHost: e.ACC_SERVER_HOST,
          tcpPort: e.ACC_SERVER_PORT,
          broadcast: {
            host: e.ACC_BROADCAST_HOST,
            port: e.ACC_BROADCAST_PORT,
            password: e.ACC_BROADCAST_PASSWORD,
          },
        }
      : undefined,
    images: {
      maxBytes: e.IMAGE_MAX_KB * 1024,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            prefix: e.S3_PREFIX,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : undefined,
    },
    metricsToken: e.METRICS_TOKEN,
  };
}
