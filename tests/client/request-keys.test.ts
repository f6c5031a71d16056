/**
 * lib/request-keys.ts, the Idempotency-Key handling of the online-only writes (the safe's
 * countersignature and e-mails, the home's cash count reminder), against a real HTTP server on
 * loopback (api-server.ts): one key per logical request, kept across a lost answer or a 5xx until a
 * definite answer, a new one after a refusal; offline, nothing leaves the device.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { json, startTestApi, type TestApi } from './api-server.ts';

let api: TestApi;
let lib: typeof import('../../src/client/lib/request-keys.ts');
let httpLib: typeof import('../../src/client/lib/http.ts');

const MESSAGES = { offline: 'x.offline', unexpected: 'x.unexpected', byCode: { noDataError: 'x.nobody' } };
const Answer = z.object({ code: z.literal('MailEnvoye') });

/** Says the device is offline (`false`) or online, as the browser's navigator.onLine would. */
function setOnline(online: boolean): void {
  Object.defineProperty(globalThis.navigator, 'onLine', { value: online, configurable: true });
}

beforeAll(async () => {
  api = await startTestApi();
  vi.stubEnv('VITE_API_BASE', api.base);
  httpLib = await import('../../src/client/lib/http.ts');
  lib = await import('../../src/client/lib/request-keys.ts');
});
afterAll(async () => {
  await api.close();
  vi.unstubAllEnvs();
});
beforeEach(() => {
  api.requests.length = 0;
});
afterEach(() => setOnline(true));

describe('RequestKeys', () => {
  it('gives the same key while the request is the same, a new one once it changed or was settled', () => {
    const keys = new lib.RequestKeys();
    const first = keys.keyFor('remind Paris 2 2026-03-01 DIRECTEUR');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(keys.keyFor('remind Paris 2 2026-03-01 DIRECTEUR')).toBe(first);
    const other = keys.keyFor('remind Paris 2 2026-03-01 GERANT');
    expect(other).not.toBe(first);
    keys.settle();
    expect(keys.keyFor('remind Paris 2 2026-03-01 GERANT')).not.toBe(other);
  });
});

describe('keyedFailure', () => {
  it('keeps the key after what may have acted (offline, 5xx, a bug) and drops it after a 4xx', () => {
    const failure = (code: string, status: number | null) =>
      lib.keyedFailure(new httpLib.ApiFailure(code, status), MESSAGES);
    expect(failure('Network Error', null)).toEqual({ messageId: 'x.offline', settle: false });
    expect(failure('ErreurEnvoiMail', 502)).toEqual({ messageId: 'error.ErreurEnvoiMail', settle: false });
    expect(failure('IdempotencyKeyInProgress', 503)).toEqual({
      messageId: 'error.IdempotencyKeyInProgress',
      settle: false,
    });
    expect(failure('noDataError', 400)).toEqual({ messageId: 'x.nobody', settle: true });
    expect(failure('Forbidden', 403)).toEqual({ messageId: 'error.Forbidden', settle: true });
    expect(lib.keyedFailure(new Error('bug'), MESSAGES)).toEqual({
      messageId: 'x.unexpected',
      settle: false,
    });
  });
});

describe('sendKeyed', () => {
  it('sends the method, parameters, JSON body and Idempotency-Key, and answers the parsed JSON', async () => {
    api.on('bo/setContreCode', (_req, res) => json(res, 200, { code: 'MailEnvoye' }));
    const answer = await lib.sendKeyed({
      method: 'post',
      path: 'bo/setContreCode',
      params: { id: 7, role: 'DIRECTEUR', absent: undefined },
      key: 'key-1',
      parse: (body) => Answer.parse(body),
      json: { contreCode: '1234' },
    });
    expect(answer).toEqual({ code: 'MailEnvoye' });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: 'POST', path: 'bo/setContreCode' });
    expect(req!.search.get('id')).toBe('7');
    expect(req!.search.get('role')).toBe('DIRECTEUR');
    expect(req!.search.has('absent')).toBe(false);
    expect(req!.headers['idempotency-key']).toBe('key-1');
    expect(req!.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(req!.headers['content-length'])).toBe(JSON.stringify({ contreCode: '1234' }).length);
  });

  it('fails with the server code as an ApiFailure, and with an answer that is not what it should be', async () => {
    api.on('bo/home/envoieMail', (_req, res) => json(res, 400, { code: 'noDataError', message: 'nobody' }));
    const call = {
      method: 'get',
      path: 'bo/home/envoieMail',
      params: {},
      key: 'k',
      parse: Answer.parse,
    } as const;
    await expect(lib.sendKeyed(call)).rejects.toMatchObject({ code: 'noDataError', status: 400 });
    api.on('bo/home/envoieMail', (_req, res) => json(res, 200, { code: 'Other' }));
    await expect(lib.sendKeyed(call)).rejects.toThrow();
  });

  it('offline, fails at once with Network Error and sends nothing', async () => {
    setOnline(false);
    const failure = await lib
      .sendKeyed({ method: 'get', path: 'bo/home/envoieMail', params: {}, key: 'k', parse: Answer.parse })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(httpLib.ApiFailure);
    expect(failure).toMatchObject({ code: 'Network Error', status: null });
    expect(lib.keyedFailure(failure, MESSAGES).messageId).toBe('x.offline');
    expect(api.requests).toHaveLength(0);
  });

  it('resends a request after a 5xx under the same key, and a new request after a refusal under a new one', async () => {
    const answers = [
      [502, { code: 'ErreurEnvoiMail', message: 'smtp' }],
      [200, { code: 'MailEnvoye' }],
      [400, { code: 'noDataError', message: 'nobody' }],
      [200, { code: 'MailEnvoye' }],
    ] as const;
    let n = 0;
    api.on('bo/home/envoieMailManquant', (_req, res) => {
      const [status, body] = answers[n++]!;
      json(res, status, body);
    });
    const keys = new lib.RequestKeys();
    /** One try as the dialogs make it: the key of the request, settled after a definite answer. */
    const attempt = async (role: string) => {
      try {
        await lib.sendKeyed({
          method: 'get',
          path: 'bo/home/envoieMailManquant',
          params: { role },
          key: keys.keyFor(role),
          parse: Answer.parse,
        });
        keys.settle();
      } catch (e) {
        if (lib.keyedFailure(e, MESSAGES).settle) keys.settle();
      }
    };
    await attempt('DIRECTEUR');
    await attempt('DIRECTEUR');
    await attempt('GERANT');
    await attempt('GERANT');
    const sent = api.requests.map((r) => r.headers['idempotency-key']);
    expect(sent).toHaveLength(4);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[1]);
    expect(sent[3]).not.toBe(sent[2]);
  });
});
