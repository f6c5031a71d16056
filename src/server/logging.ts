/**
 * The server's logs (DESIGN.md "logs"): pino through Fastify, at most one line per request, in
 * the format chosen at start (config.ts: `LOG_FORMAT`, else text at a terminal, JSON elsewhere):
 *
 * - text: short lines for a person, so that the start banner (URL, one-time password) does not
 *   scroll away under the requests: `14:03:12 GET /api/version 200 1 ms`,
 *   `14:03:15 WARN change feed lost its connection: …`. An error keeps its stack below it.
 * - json: pino's own lines, one object a line, for a log collector.
 *
 * Secrets never reach a line, whatever the format or the writer (issue #17 item 3): every line
 * passes through {@link redactEntry} on its way out, which replaces the values of secret-looking
 * query parameters in any text (passwords, tokens, keys, codes: `bo/checkContreCode?…&contreCode=`),
 * `Basic …` credentials, and fields named like a secret. No request header is logged.
 */
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type { Config, LogFormat } from './config.ts';

/** Where log lines are written: standard output, or a test's collector. */
export interface LogSink {
  write(text: string): unknown;
}

/**
 * Query parameter names whose values are secrets (or may be): never logged. Wide on purpose
 * (`code` catches `contreCode`, `managerCode`, `codeManager`; `key` catches `rePasswordKey`,
 * `resetPasswordKey`): a redacted harmless value costs nothing, a logged secret is a leak.
 */
const SECRET_NAME = /pass|pwd|token|secret|code|auth|key|sig|cookie/i;
/**
 * Field names of a log object whose values are secrets. As {@link SECRET_NAME} without `code`
 * and `sig`, which would hide error codes (`err.code`, `BadManagerCode`) and trade fields
 * (`designation`); inside a request's `query`, `body`, `params` or `headers`, where fields are
 * wire names, {@link SECRET_NAME} applies whole.
 */
const SECRET_FIELD = /pass|pwd|token|secret|auth|key|cookie|contrecode|managercode|codemanager/i;
/** Log object fields that hold a request's wire fields. */
const WIRE_PARTS = new Set(['query', 'body', 'params', 'headers']);
const REDACTED = '[redacted]';
/** `name=value` of a query string inside any text (a URL, an error message): group 2 is the name. */
const QUERY_PAIR = /([?&])([^=&\s?#"'<>]+)=([^&\s#"'<>]*)/g;
/** HTTP credentials inside any text: `Basic base64`, `Bearer token`. */
const CREDENTIALS = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]+/gi;

/** The query parameter name `raw` (as written in a URL) decoded, or as written when malformed. */
function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw; // a malformed escape: judge the name as written
  }
}

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
      return SECRET_NAME.test(paramName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/**
 * `text` (any logged string: a message, an error's message or stack, a URL) with the values of
 * secret-looking query parameters of the URLs it quotes and any `Basic …`/`Bearer …` credentials
 * replaced by `[redacted]`.
 */
export function redactText(text: string): string {
  return text
    .replace(QUERY_PAIR, (pair: string, sep: string, name: string) =>
      SECRET_NAME.test(paramName(name)) ? `${sep}${name}=${REDACTED}` : pair,
    )
    .replace(CREDENTIALS, (_m: string, scheme: string) => `${scheme} ${REDACTED}`);
}

/** Deepest level of a log object that {@link redactEntry} looks into; log objects are shallow. */
const MAX_REDACT_DEPTH = 12;

/**
 * `value` (a parsed log line or part of one) with every secret removed: fields named like a
 * secret ({@link SECRET_FIELD}; {@link SECRET_NAME} inside a request's wire parts) censored,
 * every string passed through {@link redactText}. Below MAX_REDACT_DEPTH everything is censored.
 */
export function redactEntry(value: unknown, depth = 0, wire = false): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_REDACT_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactEntry(v, depth + 1, wire));
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    const secret = wire ? SECRET_NAME.test(name) : SECRET_FIELD.test(name);
    out[name] = secret ? REDACTED : redactEntry(inner, depth + 1, WIRE_PARTS.has(name));
  }
  return out;
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

/**
 * A pino destination writing each log object to `out`, every secret removed ({@link
 * redactEntry}): as a {@link textLine} in the text format, as one JSON line in the JSON format.
 * The last guard of "no secret in a log line", whatever wrote the line (our code, Fastify, a
 * plugin) and however it got there (a URL in an error message, a field of a serialized object).
 */
export function redactingDestination(out: LogSink, format: LogFormat): { write(json: string): void } {
  return {
    write(json) {
      const entry = redactEntry(JSON.parse(json)) as LogObject;
      out.write(format === 'text' ? `${textLine(entry)}\n` : `${JSON.stringify(entry)}\n`);
    },
  };
}

/** A pino destination writing each log object to `out` as a {@link textLine}, secrets removed. */
export function textDestination(out: LogSink): { write(json: string): void } {
  return redactingDestination(out, 'text');
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
      // Belt and braces: redactingDestination censors these (and more) anyway.
      redact: {
        paths: [
          'password',
          'token',
          'contreCode',
          'managerCode',
          '*.authorization',
          '*.password',
          '*.token',
          '*.contreCode',
          '*.managerCode',
        ],
        censor: REDACTED,
      },
    },
    redactingDestination(out, config.logFormat),
  );
  return { loggerInstance, logController: new OneLinePerRequest() };
}
