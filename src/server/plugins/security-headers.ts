/**
 * Security headers on every answer (CSP, X-Frame-Options, X-Content-Type-Options…), as helmet
 * writes them, computed once at start-up rather than by helmet's middleware on every request
 * (decision record 0011 has the cost this saves). The options hold no per-request value (no CSP
 * nonce), so the headers are the same for every answer, and helmet's own middleware computes them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet's middleware sets for `options`, by name as helmet spells it
 * (`Content-Security-Policy`…); headers it removes (`X-Powered-By`) are not in it.
 * @throws Error when `options` make helmet fail (an invalid CSP directive, for one), or when
 *   a directive is a function of the request: such headers cannot be computed once.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  const directives = options.contentSecurityPolicy ? options.contentSecurityPolicy : undefined;
  const values = typeof directives === 'object' ? Object.values(directives.directives ?? {}) : [];
  if (
    values.some((v) => v !== null && typeof v === 'object' && [...v].some((d) => typeof d === 'function'))
  ) {
    throw new Error('a CSP directive depends on the request: the security headers cannot be computed once');
  }
  let failure: unknown = null;
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    failure = err ?? null;
    done = true;
  });
  if (failure) throw failure;
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * Adds helmet's headers for `options` to every answer of `app` (an onRequest hook on the root
 * instance, so API answers, client files, not-found and error answers all carry them). A route
 * may still set one of them itself, after this hook.
 * @throws Error of {@link helmetHeaders}.
 */
export function installSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', function addSecurityHeaders(_request, reply, done) {
    reply.headers(headers);
    done();
  });
}
