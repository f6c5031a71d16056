/**
 * Serves the built client (`dist/`) so that the PWA caches correctly (issue #2 §7): hashed
 * `/assets/*` files are immutable for a year; `index.html`, `sw.js`, the web manifest and the
 * other unhashed files are `no-cache` (always revalidated, so a new version is seen at once);
 * a missing `/assets/` file is a real 404 (answering the shell there would make a stale page
 * load HTML as JavaScript); any other GET navigation outside the API gets `index.html`, so the
 * client router handles deep links. Brotli/gzip files produced by the build are served when
 * present, otherwise @fastify/compress compresses on the fly.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiHttpError } from './error-handler.ts';
import { API_PREFIX } from './rights-guard.ts';

/** Cache-Control of hashed assets. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of every unhashed file. */
export const NO_CACHE = 'no-cache';

/** The Cache-Control header for the file `filePath` of `clientDir`. */
export function cacheControlFor(clientDir: string, filePath: string): string {
  const relative = path.relative(clientDir, filePath).split(path.sep).join('/');
  return relative.startsWith('assets/') ? IMMUTABLE : NO_CACHE;
}

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

function isApi(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
}

/**
 * Installs the not-found handler of `app` (root instance) and, when `clientDir` is given, the
 * client files. Unknown paths answer 404 `NotFound` as JSON unless they are navigations to the SPA.
 */
export async function installClient(app: FastifyInstance, clientDir: string | undefined): Promise<void> {
  if (clientDir) {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      index: ['index.html'],
      cacheControl: false, // set per file below
      preCompressed: true,
      setHeaders(reply: FastifyReply, filePath: string) {
        reply.header('cache-control', cacheControlFor(clientDir, filePath));
      },
    });
  }
  app.setNotFoundHandler(async function notFound(request, reply) {
    const url = request.url;
    if (clientDir && wantsHtml(request) && !isApi(url) && !url.startsWith('/assets/')) {
      return reply.header('cache-control', NO_CACHE).sendFile('index.html');
    }
    throw new ApiHttpError(404, 'NotFound', `${request.method} ${url.split('?')[0]} not found`);
  });
}
