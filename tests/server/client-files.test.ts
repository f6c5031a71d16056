import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const INDEX = `<!doctype html><html><head><title>Comptoir</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
/** An asset the build compressed (vite.config.ts): its .br and .gz siblings are on disk. */
const CHUNK = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ i, site: `Site ${i % 7}` })))};`;
const CHUNK_BR = zlib.brotliCompressSync(CHUNK, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
const CHUNK_GZ = zlib.gzipSync(CHUNK, { level: 9 });

describe('the built client', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-dist-'));
    await fs.mkdir(path.join(dir, 'assets'));
    await fs.writeFile(path.join(dir, 'index.html'), INDEX);
    await fs.writeFile(path.join(dir, 'assets', 'index-B4x9k2.js'), SCRIPT);
    await fs.writeFile(path.join(dir, 'assets', 'chunk-P7x2Qa.js'), CHUNK);
    await fs.writeFile(path.join(dir, 'assets', 'chunk-P7x2Qa.js.br'), CHUNK_BR);
    await fs.writeFile(path.join(dir, 'assets', 'chunk-P7x2Qa.js.gz'), CHUNK_GZ);
    await fs.writeFile(path.join(dir, 'sw.js'), SCRIPT);
    await fs.writeFile(
      path.join(dir, 'manifest.webmanifest'),
      JSON.stringify({ name: 'Comptoir', icons: [] }),
    );
    t = await createTestApp({ clientDir: dir });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('sends hashed assets as immutable for a year', async () => {
    const res = await get('/assets/index-B4x9k2.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe(SCRIPT);
  });

  it.each(['/', '/index.html', '/sw.js', '/manifest.webmanifest'])('sends %s as no-cache', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the manifest with its media type', async () => {
    expect((await get('/manifest.webmanifest')).headers['content-type']).toMatch(
      /application\/manifest\+json/,
    );
  });

  it('answers 404, never the shell, for a missing asset', async () => {
    const res = await get('/assets/index-OLD123.js', { accept: 'text/html,*/*' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
    expect(res.json()).toMatchObject({ code: 'NotFound' });
  });

  it('answers a navigation to a client route with the shell, no-cache', async () => {
    const res = await get('/rapports?x=1', { accept: 'text/html,application/xhtml+xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('answers unknown API paths and non-HTML requests with 404 JSON', async () => {
    const api = await get('/api/bo/unknown', { accept: 'text/html' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NotFound' });
    const image = await get('/missing.png', { accept: 'image/*' });
    expect(image.statusCode).toBe(404);
  });

  it('compresses with brotli or gzip as the browser accepts', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-B4x9k2.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await t.app.inject({
      method: 'GET',
      url: '/rapports',
      headers: { 'accept-encoding': 'gzip', accept: 'text/html' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(api.headers['content-encoding']).toBe('br');
  });

  it("sends the build's own .br and .gz of an asset as they are, not compressed again", async () => {
    // What compressing per answer would send instead (app.ts: brotli quality 4, gzip level 3):
    // other bytes, so the checks below cannot pass by accident.
    expect(
      zlib
        .brotliCompressSync(CHUNK, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
        .equals(CHUNK_BR),
    ).toBe(false);
    expect(zlib.gzipSync(CHUNK, { level: 3 }).equals(CHUNK_GZ)).toBe(false);
    const br = await get('/assets/chunk-P7x2Qa.js', { 'accept-encoding': 'br, gzip' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.equals(CHUNK_BR)).toBe(true);
    // A shared cache keeps one copy per encoding, never the brotli for a browser without it.
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const gz = await get('/assets/chunk-P7x2Qa.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(CHUNK_GZ)).toBe(true);
    const plain = await get('/assets/chunk-P7x2Qa.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(CHUNK);
  });
});
