/**
 * Server configuration, read once from the environment and validated at start-up (issue #2,
 * DESIGN.md §9). A bad value stops the server with a message naming the variable and its rule,
 * never the value.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { passwordProblems } from '../contract/password.ts';

/** Formats of the server's log lines (logging.ts): short lines for a person, or pino's JSON. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** True for an IPv4/IPv6 address, optionally with a CIDR prefix length (`10.0.0.0/8`). */
function isAddressOrRange(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The log format: the one set (`LOG_FORMAT`), else text when the lines go to a terminal (a person
 * reads them, the start banner above them) and JSON when they go elsewhere (a file, a collector).
 */
export function chooseLogFormat(setting: LogFormat | undefined, terminal: boolean): LogFormat {
  return setting ?? (terminal ? 'text' : 'json');
}

const bool01 = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  COMPTOIR_ADMIN_LOGIN: z.string().min(1).default('admin'),
  COMPTOIR_ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine(
      (p) => p === undefined || passwordProblems(p).length === 0,
      'must have at least 10 characters with an upper-case letter, a lower-case letter, a digit and a special character',
    ),
  COMPTOIR_DEMO: bool01.default(true),
  /** Distribution (client) name answered by GET distribution (SPEC.md §4). */
  COMPTOIR_DISTRIBUTION: z.string().min(1).default('Comptoir'),
  /** Seed of the demo generator: same seed → same data. */
  COMPTOIR_DEMO_SEED: z.coerce.number().int().default(20261122),
  /** Session lifetime in minutes; every authenticated call pushes expiry this far (sliding). */
  COMPTOIR_SESSION_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 60),
  /** Login attempts allowed per client address per minute. */
  COMPTOIR_LOGIN_RATE: z.coerce.number().int().positive().default(10),
  /** Absolute lifetime of a session in days, however much it is used (issue #17 item 8). */
  COMPTOIR_SESSION_MAX_DAYS: z.coerce.number().int().positive().max(365).default(7),
  /** Live sessions one user may hold; opening one more revokes the oldest (issue #17 item 8). */
  COMPTOIR_SESSIONS_PER_USER: z.coerce.number().int().positive().max(1000).default(10),
  /**
   * Reverse proxies whose X-Forwarded-For is believed (docs/operations/instances.md): unset = none
   * (the client address is the socket's); a number = that many proxies in front; else a
   * comma-separated list of proxy addresses or CIDR ranges. Never "every hop": a client could then
   * forge its address and escape the per-address counters of decision 0020.
   */
  COMPTOIR_TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (/^\d+$/.test(v)) {
        const hops = Number(v);
        if (hops >= 1 && hops <= 10) return hops;
      } else {
        const entries = v.split(',').map((x) => x.trim());
        if (entries.every(isAddressOrRange)) return entries;
      }
      ctx.addIssue({ code: 'custom', message: 'a number of proxies (1–10) or proxy addresses/CIDR ranges' });
      return z.NEVER;
    }),
  /**
   * Failed sign-ins (and password checks) one client address may make in 10 minutes before it is
   * refused for 10 minutes (decision record 0020): generous, for an office behind one NAT.
   */
  COMPTOIR_LOGIN_FAILURES_PER_IP: z.coerce.number().int().positive().max(100000).default(50),
  /** Unset: `warn` in the text format (no line per request), `info` in JSON (one line per request). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** `text` (short lines for a person) or `json` (pino's lines); unset: text at a terminal, else JSON. */
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  /** Key of the credentials of integrations' HTTPS destinations (decision 0044); unset: none can be stored. */
  COMPTOIR_SECRET_KEY: z.string().min(16, 'must have at least 16 characters').optional(),
  /** SMTP server of outgoing mail (nodemailer URL, e.g. smtp://user:pass@host:587); unset = no mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** Sender of outgoing mail: an address, optionally with a name (`Comptoir <noreply@example.com>`). */
  COMPTOIR_MAIL_FROM: z
    .string()
    .regex(/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+(>)?$/, 'must be an e-mail address')
    .default('Comptoir <comptoir@localhost>'),
  /** Minutes a password-reset link stays valid (issue #18: 1 h by default). */
  COMPTOIR_RESET_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60)
    .default(60),
  /**
   * The address users reach the app at (`https://comptoir.example.com`), which reset links
   * point to; unset: `http://localhost:<PORT>`. Never taken from a request's Host header, which
   * a caller chooses (reset-link poisoning).
   */
  COMPTOIR_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// address without query')
    .optional(),
  /**
   * `1`: this instance runs queued jobs (mails, clean-ups, scheduled reports); `0`: it serves HTTP
   * and may queue jobs, which other instances run (src/server/jobs/, issue #28).
   */
  COMPTOIR_JOBS: bool01.default(true),
  /** Days the report history (report_editions) is kept; older editions are deleted daily (decision 0018). */
  COMPTOIR_EDITIONS_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
});

/** The validated configuration. `dataDir` is absolute. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminLogin: string;
  adminPassword: string | undefined;
  demo: boolean;
  distribution: string;
  demoSeed: number;
  sessionMinutes: number;
  loginRatePerMinute: number;
  /** Absolute lifetime of a session in days (COMPTOIR_SESSION_MAX_DAYS, default 7). */
  sessionMaxDays: number;
  /** Live sessions per user; the oldest is revoked beyond it (COMPTOIR_SESSIONS_PER_USER, default 10). */
  sessionsPerUser: number;
  /** Fastify's `trustProxy` (COMPTOIR_TRUST_PROXY): proxies in front, or their addresses; undefined = none. */
  trustProxy?: number | string[] | undefined;
  /** Failed sign-ins per client address in 10 minutes before a 10-minute refusal (default 50). */
  loginFailuresPerIp: number;
  logLevel: NonNullable<z.infer<typeof EnvSchema>['LOG_LEVEL']>;
  /** How log lines are written (logging.ts): short text lines or JSON. */
  logFormat: LogFormat;
  /** Days of sales the demo generator writes (default: its 13 months); not a setting, tests shorten it. */
  demoDays?: number;
  /** Key of the integrations' HTTPS credentials (COMPTOIR_SECRET_KEY, decision 0044); undefined: none can be stored. */
  secretKey?: string | undefined;
  /** SMTP URL of outgoing mail, or undefined when mail is not configured. */
  smtpUrl?: string | undefined;
  /** Sender of outgoing mail. */
  mailFrom?: string;
  /** Minutes a password-reset link stays valid (COMPTOIR_RESET_MINUTES, default 60). */
  resetMinutes: number;
  /** Public address of the app, without a trailing slash: reset links start with it (COMPTOIR_PUBLIC_URL). */
  publicUrl: string;
  /** Days the report history is kept (COMPTOIR_EDITIONS_DAYS, default 400; decision record 0018). */
  editionsDays: number;
  /** Whether this instance runs queued jobs (COMPTOIR_JOBS, default true); it may queue them either way. */
  jobs: boolean;
}

/** Thrown when the environment holds a bad value; `message` names every bad variable and rule, no value. */
export class ConfigError extends Error {}

/**
 * Reads the configuration from `env` (default `process.env`). Empty strings count as unset.
 * @param terminal whether the logs go to a person's terminal (default: standard output is a TTY),
 *   which decides the log format and level that `env` leaves unset.
 * @throws ConfigError listing each bad variable and why.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  terminal: boolean = process.stdout.isTTY === true,
): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    // The variable and its rule only, never the value: it may be a password or a URL holding one,
    // and this message is printed and logged (issue #17 item 3).
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const logFormat = chooseLogFormat(e.LOG_FORMAT, terminal);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminLogin: e.COMPTOIR_ADMIN_LOGIN,
    adminPassword: e.COMPTOIR_ADMIN_PASSWORD,
    demo: e.COMPTOIR_DEMO,
    distribution: e.COMPTOIR_DISTRIBUTION,
    demoSeed: e.COMPTOIR_DEMO_SEED,
    sessionMinutes: e.COMPTOIR_SESSION_MINUTES,
    loginRatePerMinute: e.COMPTOIR_LOGIN_RATE,
    sessionMaxDays: e.COMPTOIR_SESSION_MAX_DAYS,
    sessionsPerUser: e.COMPTOIR_SESSIONS_PER_USER,
    trustProxy: e.COMPTOIR_TRUST_PROXY,
    loginFailuresPerIp: e.COMPTOIR_LOGIN_FAILURES_PER_IP,
    logLevel: e.LOG_LEVEL ?? (logFormat === 'text' ? 'warn' : 'info'),
    logFormat,
    smtpUrl: e.SMTP_URL,
    secretKey: e.COMPTOIR_SECRET_KEY,
    mailFrom: e.COMPTOIR_MAIL_FROM,
    resetMinutes: e.COMPTOIR_RESET_MINUTES,
    publicUrl: (e.COMPTOIR_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    editionsDays: e.COMPTOIR_EDITIONS_DAYS,
    jobs: e.COMPTOIR_JOBS,
  };
}
