/**
 * The server's logs (DESIGN.md "logs"): pino through Fastify, at most one line per request, in
 * the format chosen at start (config.ts: `LOG_FORMAT`, else text at a terminal, JSON elsewhere):
 *
 * - text: short lines for a person, so that the start banner (URL, one-time password) does not
 *   scroll away under the requests: `14:03:12 GET /api/version 200 1 ms`,
 *   `14:03:15 WARN change feed lost its connection: …`. An error keeps its stack below it.
 * - json: pino's own lines, one object a line, for a log collector.
 *
 * Secrets never reach a line, whatever the format: a URL is logged with the values of its
 * secret-looking query parameters (passwords, tokens, codes: `bo/checkContreCode?…&contreCode=`)
 * replaced, no request header is logged, and fields named like a secret are censored.
 */
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';

/** Where log lines are written: standard output, or a test's collector. */
export interface LogSink {
  write(text: string): unknown;
}

/** Query parameter names whose values are secrets (or may be): never logged. */
const SECRET_NAME = /pass|pwd|token|secret|code|auth|key|sig/i;
const REDACTED = '[redacted]';

/**
 * `url` (path and query, as a request line has it) with the value of every query parameter whose
 * name looks like a secret ({@link SECRET_NAME}) replaced by `[redacted]`. The path is kept.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return SECRET_NAME.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/** pino's levels by number, as the text format names them (info, the usual one, is not named). */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields of a log object that the text format shows in its own way, or not at all. */
const SHOWN_APART = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'reqId',
  'msg',
  'err',
  'req',
  'res',
  'responseTime',
]);

/** `HH:MM:SS` (24-hour, the server's local time) of an epoch time in milliseconds. */
function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A field's value as the text format writes it after `name=`. */
function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface LogObject {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

/**
 * One pino log object as the text format writes it: time, level (not for info), then a request
 * line's `METHOD url status time ms`, or the message with its other fields (`name=value`), then
 * the error's message; an error or fatal line is followed by its error's stack, indented.
 */
export function textLine(entry: LogObject): string {
  const level = entry.level ?? 30;
  const parts = [clock(entry.time ?? Date.now())];
  if (LEVEL_NAMES[level]) parts.push(LEVEL_NAMES[level]);
  if (entry.req && entry.res) {
    parts.push(entry.req.method ?? '', entry.req.url ?? '', String(entry.res.statusCode ?? ''));
    if (entry.responseTime !== undefined) parts.push(`${Math.round(entry.responseTime)} ms`);
  } else if (entry.msg) parts.push(entry.msg);
  for (const [name, value] of Object.entries(entry)) {
    if (!SHOWN_APART.has(name) && value !== undefined) parts.push(`${name}=${fieldText(value)}`);
  }
  let line = parts.join(' ');
  if (entry.err?.message) line += `: ${entry.err.message}`;
  if (level >= 50 && entry.err?.stack) {
    const below = entry.err.stack.split('\n').filter((l) => /^\s+at /.test(l));
    if (below.length > 0) line += `\n  ${below.map((l) => l.trim()).join('\n  ')}`;
  }
  return line;
}

/** A pino destination writing each log object to `out` as a {@link textLine}. */
export function textDestination(out: LogSink): { write(json: string): void } {
  return {
    write(json) {
      out.write(`${textLine(JSON.parse(json) as LogObject)}\n`);
    },
  };
}

/**
 * Fastify's request lines, one per request instead of two: none when it arrives, one when it is
 * answered (`request completed`, with the method, the redacted URL, the status and the time;
 * `request errored` at error level when the answer failed).
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }

  /** Nothing more: the request's own line says 404 (and the app has its own not-found handler). */
  override routeNotFound(): void {}
}

/**
 * The logger and the request-line policy to give Fastify (`loggerInstance`, `logController`) for
 * `config`'s level and format, writing to `out` (default standard output, where the start banner
 * goes too, so lines keep their order).
 */
export function serverLogging(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  out: LogSink = process.stdout,
): { loggerInstance: FastifyBaseLogger; logController: LogController } {
  const loggerInstance = pino(
    {
      level: config.logLevel,
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
      // Belt and braces: no code of ours logs these fields, but a future line might.
      redact: {
        paths: [
          'password',
          'token',
          'contreCode',
          '*.authorization',
          '*.password',
          '*.token',
          '*.contreCode',
        ],
        censor: REDACTED,
      },
    },
    config.logFormat === 'text' ? textDestination(out) : out,
  );
  return { loggerInstance, logController: new OneLinePerRequest() };
}
