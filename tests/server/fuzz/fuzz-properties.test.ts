/**
 * The fuzz suite's checks can fail: each property of tests/helpers/fuzz-properties.ts refuses the
 * answer it is there to catch (the forms issue #17 saw), and the request writer breaks UTF-8 the
 * way it means to.
 */
import { describe, expect, it } from 'vitest';
import { violation } from '../../helpers/fuzz-properties.ts';
import { encodeText, formText } from '../../helpers/fuzz-requests.ts';
import { RawText } from '../../helpers/fuzz-values.ts';

const json = { 'content-type': 'application/json; charset=utf-8' };

describe('the fuzz properties', () => {
  it('keep a plain answer and a §8 error', () => {
    expect(violation({ statusCode: 200, body: '{"ok":true}', headers: json })).toBeNull();
    expect(
      violation({
        statusCode: 400,
        body: '{"code":"BadRequest","message":"Requête invalide"}',
        headers: json,
      }),
    ).toBeNull();
  });

  it('refuse a 5xx, an error out of shape or with an unknown code', () => {
    expect(
      violation({ statusCode: 500, body: '{"code":"InternalError","message":"x"}', headers: json }),
    ).toMatch(/500/);
    expect(violation({ statusCode: 503, body: '', headers: {} })).toMatch(/503/);
    expect(violation({ statusCode: 431, body: '', headers: {} })).toMatch(/not JSON/);
    expect(
      violation({
        statusCode: 400,
        body: '{"statusCode":400,"error":"Bad Request","message":"x"}',
        headers: json,
      }),
    ).toMatch(/code, message/);
    expect(
      violation({ statusCode: 400, body: '{"code":"FST_ERR_BAD_URL","message":"x"}', headers: json }),
    ).toMatch(/FST_ERR_BAD_URL/);
  });

  it('refuse a stack, SQL or the database name in a textual body, even in a 2xx', () => {
    const bodies = [
      'Error: boom\n    at handler (/app/src/server/routes/x.ts:12:3)',
      '{"message":"syntax error at or near \\"FROM\\""}',
      '{"message":"relation \\"users\\" does not exist"}',
      '{"message":"insert violates foreign key constraint"}',
      '{"sql":"SELECT * FROM users"}',
      '{"message":"PostgreSQL: value out of range"}',
    ];
    for (const body of bodies) {
      expect(violation({ statusCode: 200, body, headers: json }), body).toMatch(/leaks/);
      expect(violation({ statusCode: 400, body, headers: { 'content-type': 'text/plain' } }), body).toMatch(
        /leaks/,
      );
    }
    expect(
      violation({ statusCode: 200, body: 'SELECT ', headers: { 'content-type': 'application/pdf' } }),
    ).toBeNull();
  });
});

describe('the request writer', () => {
  it('writes a lone surrogate as invalid UTF-8 and raw fragments as they are', () => {
    expect(encodeText('a\ud800')).toBe('a%ED%A0%80');
    expect(encodeText('é&')).toBe('%C3%A9%26');
    expect(formText({ a: [1, 2], b: new RawText('%00'), c: { d: 1 }, e: [] })).toBe(
      'a=1&a=2&b=%00&c=%7B%22d%22%3A1%7D&e=',
    );
  });
});
