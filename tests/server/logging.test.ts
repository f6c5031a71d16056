import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { buildApp } from '../../src/server/app.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { redactUrl, textLine } from '../../src/server/logging.ts';
import { basic } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';

describe('log settings', () => {
  it('writes short text lines at a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, true)).toMatchObject({ logFormat: 'text', logLevel: 'warn' });
    expect(loadConfig({}, false)).toMatchObject({ logFormat: 'json', logLevel: 'info' });
    expect(loadConfig({ LOG_FORMAT: 'json' }, true)).toMatchObject({ logFormat: 'json', logLevel: 'info' });
    expect(loadConfig({ LOG_FORMAT: 'text' }, false)).toMatchObject({ logFormat: 'text', logLevel: 'warn' });
  });

  it('keeps the LOG_LEVEL set, and refuses an unknown format naming the variable', () => {
    expect(loadConfig({ LOG_LEVEL: 'info' }, true)).toMatchObject({ logFormat: 'text', logLevel: 'info' });
    expect(loadConfig({ LOG_LEVEL: 'error', LOG_FORMAT: 'json' }, true).logLevel).toBe('error');
    expect(() => loadConfig({ LOG_FORMAT: 'pretty' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'pretty' })).toThrow(/LOG_FORMAT/);
  });
});

describe('log lines', () => {
  it('hides the values of secret query parameters of a URL, and keeps the rest', () => {
    expect(redactUrl('/api/bo/checkContreCode?id=4&code=marie&contreCode=2468')).toBe(
      '/api/bo/checkContreCode?id=4&code=[redacted]&contreCode=[redacted]',
    );
    expect(redactUrl('/api/x?password=a%20b&Token=t&api_key=k&dateDebut=2026-11-01')).toBe(
      '/api/x?password=[redacted]&Token=[redacted]&api_key=[redacted]&dateDebut=2026-11-01',
    );
    expect(redactUrl('/api/version')).toBe('/api/version');
  });

  it('reads as a short line: time, level, request or message, fields, error', () => {
    const time = new Date(2026, 10, 26, 9, 5, 7).getTime();
    expect(
      textLine({
        level: 30,
        time,
        req: { method: 'GET', url: '/api/version' },
        res: { statusCode: 200 },
        responseTime: 1.6,
      }),
    ).toBe('09:05:07 GET /api/version 200 2 ms');
    expect(
      textLine({
        level: 40,
        time,
        msg: 'idempotency purge failed',
        pid: 1,
        hostname: 'h',
        err: { message: 'gone' },
      }),
    ).toBe('09:05:07 WARN idempotency purge failed: gone');
    const error = textLine({
      level: 50,
      time,
      msg: 'request failed',
      method: 'GET',
      userId: 3,
      err: { message: 'boom', stack: 'Error: boom\n    at run (file.ts:1:2)\n    at main (file.ts:3:4)' },
    });
    expect(error).toBe(
      '09:05:07 ERROR request failed method=GET userId=3: boom\n  at run (file.ts:1:2)\n  at main (file.ts:3:4)',
    );
  });
});

describe('request logging', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  /** The app logging at `info` in `format` into a list of written lines. */
  async function loggingApp(format: 'text' | 'json') {
    const lines: string[] = [];
    const config = loadConfig({ COMPTOIR_DEMO: '0', LOG_LEVEL: 'info', LOG_FORMAT: format });
    const app = await buildApp({
      config,
      database,
      logger: true,
      logTo: { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) },
    });
    await app.ready();
    return { app, lines };
  }

  it('writes one short line per request in the text format', async () => {
    const { app, lines } = await loggingApp('text');
    try {
      const before = lines.length;
      expect((await app.inject({ method: 'GET', url: '/api/version' })).statusCode).toBe(200);
      expect(lines.slice(before)).toEqual([
        expect.stringMatching(/^\d\d:\d\d:\d\d GET \/api\/version 200 \d+ ms$/),
      ]);
    } finally {
      await app.close();
    }
  });

  it('writes one JSON line per request in the JSON format, with no password, token or code in it', async () => {
    const { app, lines } = await loggingApp('json');
    try {
      const before = lines.length;
      const headers = {
        authorization: basic('admin', 'Secret-Pass-1!'),
        [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
      };
      await app.inject({ method: 'GET', url: '/api/bo/connexion?username=admin', headers });
      await app.inject({
        method: 'GET',
        url: '/api/bo/checkContreCode?id=1&code=admin&contreCode=975310',
        headers,
      });
      const written = lines.slice(before);
      expect(written).toHaveLength(2);
      const entries = written.map((l) => JSON.parse(l) as { msg: string; req: { url: string } });
      expect(entries.map((e) => e.msg)).toEqual(['request completed', 'request completed']);
      expect(entries[1]!.req.url).toBe('/api/bo/checkContreCode?id=1&code=[redacted]&contreCode=[redacted]');
      const all = written.join('\n');
      for (const secret of [
        '975310',
        'Secret-Pass-1!',
        Buffer.from('admin:Secret-Pass-1!').toString('base64'),
      ]) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });
});
