/**
 * Every text that comes from outside is checked once, here at the edge, before any route, the
 * rights guard's database look-up or the idempotency hash sees it (issue #17 items 1 and 2).
 * PostgreSQL refuses a NUL character in text ("invalid byte sequence for encoding UTF8: 0x00"),
 * and a body nested thousands deep overflows any recursive walk: both used to end in a 500.
 *
 * Guarantees:
 * - The URL (path and query string, percent-escapes decoded to bytes) and the request headers
 *   we read ({@link CHECKED_HEADERS}) hold valid UTF-8 without NUL, else 400 `InvalidText`.
 *   `Authorization` is not checked here: a header that does not decode to valid text is no
 *   credentials (auth/tokens.ts parseBasic), so the call answers 401 like any other.
 * - Bodies of the text types we parse (JSON, forms, plain text) are checked as they stream in,
 *   whatever parser is installed: valid UTF-8 without a NUL byte, and percent-escapes of a form
 *   that decode to valid UTF-8, else 400 `InvalidText`; JSON nested deeper than
 *   {@link MAX_JSON_DEPTH} is refused with 400 `BadRequest` before it is parsed.
 * - Once parsed, every string of the body (keys included) is checked for what JSON escapes can
 *   spell (`\u0000`, a lone surrogate `\ud800`) and form escapes decode to (`%00`): 400 `InvalidText`.
 * - What Node's HTTP parser refuses before Fastify sees a request (a raw NUL or byte ≥ 0x80 in the
 *   URL, a NUL in a header: its own bare 400) is answered in SPEC.md §8's shape too
 *   ({@link answerClientError}).
 *
 * Answers never echo the refused text: the details say where (`url`, `header`, `body`) and, for
 * a header, its name. These are 4xx answers, so nothing is written to the error log.
 */
import { isUtf8 } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest, RequestPayload } from 'fastify';
import type { ApiError, ErrorCode } from '../../contract/errors.ts';
import { ApiHttpError } from './error-handler.ts';

/** Deepest JSON nesting accepted in a body: ours nest a few levels; 32 leaves any honest client room. */
export const MAX_JSON_DEPTH = 32;

/**
 * Request headers the server or the client's stack reads; their values must be valid text.
 * Other headers are ignored, so they are not refused for what a proxy or a browser put there.
 */
export const CHECKED_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'idempotency-key',
  'x-requested-with',
] as const;

/** Where an invalid text was found (sent as `details.where`). */
export type TextPlace = 'url' | 'header' | 'body';

const PERCENT = 0x25;

/** Value of one hexadecimal digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/**
 * The bytes a percent-encoded text stands for: `%XX` escapes decoded, other characters taken as
 * the bytes Node's HTTP parser read them from (Latin-1, one byte each; a character beyond U+00FF,
 * which only an in-process caller can pass, as its UTF-8). A `%` not followed by two hex digits
 * stays a `%`, as the query string parser leaves it.
 */
function percentDecodedBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === PERCENT && i + 2 < text.length) {
      const high = hexValue(text.charCodeAt(i + 1));
      const low = hexValue(text.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        bytes.push(high * 16 + low);
        i += 2;
        continue;
      }
    }
    if (code <= 0xff) {
      bytes.push(code);
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point >= 0xd800 && point <= 0xdfff) {
      bytes.push(0xff); // a lone surrogate is no text: a byte that is never valid UTF-8
      continue;
    }
    bytes.push(...Buffer.from(String.fromCodePoint(point), 'utf8'));
    if (point > 0xffff) i++;
  }
  return Buffer.from(bytes);
}

/** True when `bytes` are valid UTF-8 without a NUL byte. */
export function isCleanUtf8(bytes: Uint8Array): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}

/**
 * True when the percent-encoded `text` (a URL, a query string, a form body) decodes to valid
 * UTF-8 without NUL. A sequence split by `&` or `=` is invalid too, as each part must decode.
 */
export function isCleanPercentEncoded(text: string): boolean {
  return isCleanUtf8(percentDecodedBytes(text));
}

/** True when `text` (a JavaScript string, as a parser made it) has no NUL and no lone surrogate. */
export function isCleanString(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * True when every string in `value` (object keys included) is {@link isCleanString}. Iterative,
 * so no nesting overflows it; it stops at the first bad string.
 */
export function isCleanValue(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isCleanString(item)) return false;
    } else if (Array.isArray(item)) {
      for (const inner of item) pending.push(inner); // no spread: an array may hold 500,000 items
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (!isCleanString(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

/** The 400 of a text that is not valid UTF-8 or holds a NUL. */
function invalidText(where: TextPlace, name?: string): ApiHttpError {
  const what = name ? `${where} ${name}` : where;
  return new ApiHttpError(400, 'InvalidText', `${what}: not valid UTF-8 text or holds a NUL character`, {
    where,
    ...(name ? { name } : {}),
  });
}

/** The 400 of a JSON body nested deeper than {@link MAX_JSON_DEPTH}. */
function tooDeep(): ApiHttpError {
  return new ApiHttpError(400, 'BadRequest', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, {
    maxDepth: MAX_JSON_DEPTH,
  });
}

/**
 * Checks the URL and the read headers of `request`.
 * @throws ApiHttpError 400 InvalidText (details.where `url` or `header` with the header's name);
 *   400 BadRequest (details.where `header`, name `host`) for an HTTP/1.1 request without Host.
 */
export function checkUrlAndHeaders(request: FastifyRequest): void {
  if (!isCleanPercentEncoded(request.url)) throw invalidText('url');
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused with 400. Node's own refusal was
  // a bare 400 without our body or security headers (app.ts turns it off; issue #32 C.8).
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  if (httpVersionMajor === 1 && httpVersionMinor >= 1 && request.headers.host === undefined) {
    throw new ApiHttpError(400, 'BadRequest', 'an HTTP/1.1 request needs a Host header', {
      where: 'header',
      name: 'host',
    });
  }
  for (const name of CHECKED_HEADERS) {
    const value = request.headers[name];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    // Header values arrive as Latin-1 (one character per byte): their bytes are the characters.
    if (values.some((v) => !isCleanUtf8(Buffer.from(v, 'latin1')))) throw invalidText('header', name);
  }
}

/** What a body's content type tells the checker to look at. */
type BodyKind = 'json' | 'form' | 'text';

/** The kind of body of `contentType`, or null for types we do not check (and do not parse). */
export function bodyKind(contentType: string | undefined): BodyKind | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('text/')) return 'text';
  return null;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A pass-through stream that checks a body as it arrives (see the module comment), without
 * changing a byte: the parser after it reads the same body. Fails with an ApiHttpError, which
 * the body reader answers as it is.
 */
export class BodyCheck extends Transform {
  readonly #kind: BodyKind;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  /** A form's text, checked whole at the end (forms are small; the body limit bounds them). */
  readonly #formChunks: Buffer[] = [];
  #depth = 0;
  #inString = false;
  #escaped = false;
  readonly #source: { receivedEncodedLength?: number };
  #received = 0;

  /** `source` is the stream it reads: a request, or a decompressing stream in front of one. */
  constructor(kind: BodyKind, source: { receivedEncodedLength?: number }) {
    super();
    this.#kind = kind;
    this.#source = source;
  }

  /**
   * Bytes received as sent, which Fastify compares with Content-Length: the decompressing
   * stream's count when the body was compressed, else the bytes seen here.
   */
  get receivedEncodedLength(): number {
    return this.#source.receivedEncodedLength ?? this.#received;
  }

  override _transform(data: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    this.#received += chunk.length;
    try {
      if (chunk.includes(0)) throw invalidText('body');
      this.#decoder.decode(chunk, { stream: true });
    } catch (e) {
      done(e instanceof ApiHttpError ? e : invalidText('body'));
      return;
    }
    if (this.#kind === 'json' && !this.#scanJson(chunk)) {
      done(tooDeep());
      return;
    }
    if (this.#kind === 'form') this.#formChunks.push(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    try {
      this.#decoder.decode(); // throws when the body ends inside a character
    } catch {
      done(invalidText('body'));
      return;
    }
    if (this.#kind === 'form' && !isCleanPercentEncoded(Buffer.concat(this.#formChunks).toString('latin1'))) {
      done(invalidText('body'));
      return;
    }
    done();
  }

  /**
   * Follows the nesting of a JSON chunk outside strings (the bytes of a multi-byte character are
   * all ≥ 0x80, so never taken for brackets or quotes). False once deeper than MAX_JSON_DEPTH.
   */
  #scanJson(chunk: Buffer): boolean {
    for (const byte of chunk) {
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) this.#inString = false;
      } else if (byte === QUOTE) this.#inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++this.#depth > MAX_JSON_DEPTH) return false;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) this.#depth--;
    }
    return true;
  }
}

/** True when the request's body is compressed (a Content-Encoding other than identity). */
function isEncoded(request: FastifyRequest): boolean {
  const encoding = request.headers['content-encoding'];
  return encoding !== undefined && encoding.trim().toLowerCase() !== 'identity';
}

/** `payload` read through a {@link BodyCheck} when its content type is one we check. */
function checkedPayload(request: FastifyRequest, payload: RequestPayload): RequestPayload {
  const kind = bodyKind(request.headers['content-type']);
  if (kind === null) return payload;
  const check = new BodyCheck(kind, payload);
  payload.on('error', function passOnReadError(e) {
    check.destroy(e);
  });
  return payload.pipe(check);
}

/**
 * Installs the checks on the root instance `app`: call it after the security headers (so the
 * 400s carry them) and before the rights guard (so a bad URL never reaches its session look-up).
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async function checkTextsOfRequest(request) {
    checkUrlAndHeaders(request);
  });
  app.addHook('preParsing', async function checkBodyAsItArrives(request, _reply, payload) {
    return isEncoded(request) ? payload : checkedPayload(request, payload);
  });
  // A compressed body is checked once decompressed: @fastify/compress decompresses it in a
  // route-level preParsing hook put first, so this one, appended, reads its output.
  app.addHook('onRoute', function checkDecompressedBodies(route) {
    const own = route.preParsing === undefined ? [] : [route.preParsing].flat();
    route.preParsing = [
      ...own,
      async function checkDecompressedBody(request, _reply, payload) {
        return isEncoded(request) ? checkedPayload(request, payload) : payload;
      },
    ];
  });
  app.addHook('preValidation', async function checkParsedBody(request) {
    if (request.body !== undefined && !isCleanValue(request.body)) throw invalidText('body');
  });
}

/** Node's parser errors that mean "a character that is not allowed": a URL or a header that is not text. */
const INVALID_TEXT_ERRORS = new Set(['HPE_INVALID_URL', 'HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_CHARACTER']);

/** Status and §8 code of a request Node's HTTP parser refused with `code`. */
function clientErrorAnswer(code: string | undefined): { status: number; body: ApiError } {
  const answer = (status: number, errorCode: ErrorCode, message: string) => ({
    status,
    body: { code: errorCode, message },
  });
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return answer(408, 'BadRequest', 'request timeout');
  if (code === 'HPE_HEADER_OVERFLOW') return answer(431, 'BadRequest', 'request headers too large');
  if (code && INVALID_TEXT_ERRORS.has(code))
    return answer(400, 'InvalidText', 'the URL or a header is not valid text');
  return answer(400, 'BadRequest', 'malformed HTTP request');
}

/**
 * Fastify's `clientErrorHandler`: answers a request that Node's HTTP parser refused in SPEC.md
 * §8's shape (`{ code, message }`) instead of Fastify's own, with the security `headers` every
 * other answer carries (app.ts computes them once; issue #32 C.8), then closes the connection.
 * Logs only the parser's code at debug level: the error's `rawPacket` holds the request as sent,
 * its credentials and query included, so it never reaches a log line.
 */
export function clientErrorHandler(headers: Record<string, string>) {
  const securityLines = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return function answerClientError(
    this: FastifyInstance,
    error: Error & { code?: string },
    socket: Socket,
  ): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, body } = clientErrorAnswer(error.code);
    this.log.debug({ parserError: error.code ?? 'unknown', status }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const json = JSON.stringify(body);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\n${securityLines}Connection: close\r\n\r\n${json}`,
      );
    }
    socket.destroy();
  };
}
