import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

/** Sends `request` (raw bytes, as an attacker would) to `port`; answers the status line, the head and the body. */
function rawRequest(port: number, request: Buffer): Promise<{ status: string; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    // Written without ending our side: a client that half-closes reads as gone to the server.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const answer = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      return { status: text.split('\r\n')[0] ?? '', head: text.slice(0, end), body: text.slice(end + 4) };
    };
    // The server closes as soon as it has answered; a reset while our request was still being
    // written comes after the answer, which is what the test reads.
    socket.on('error', (e) => (chunks.length > 0 ? resolve(answer()) : reject(e)));
    socket.on('close', () => resolve(answer()));
  });
}

const CRLF = '\r\n';

describe('over a real socket', () => {
  let t: LoggedApp;
  let port: number;
  beforeAll(async () => {
    t = await createLoggedApp('debug', 'json');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a %00 or a raw byte 0xFF in the URL answers 400 InvalidText in the §8 shape', async () => {
    for (const target of [
      Buffer.from('/api/bo/connexion?username=a%00'),
      Buffer.from([...Buffer.from('/api/version?x='), 0xff]),
    ]) {
      const res = await rawRequest(
        port,
        Buffer.concat([
          Buffer.from('GET '),
          target,
          Buffer.from(
            ` HTTP/1.1${CRLF}Host: x${CRLF}X-Requested-With: XMLHttpRequest${CRLF}Connection: close${CRLF}${CRLF}`,
          ),
        ]),
      );
      expect(res.status).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(res.body)).toMatchObject({ code: 'InvalidText' });
    }
  });

  it('a NUL in a header answers 400 InvalidText, and headers too large 431, both in the §8 shape', async () => {
    const nul = await rawRequest(
      port,
      Buffer.from(
        `GET /api/version HTTP/1.1${CRLF}Host: x${CRLF}Accept-Language: fr\u0000${CRLF}Connection: close${CRLF}${CRLF}`,
      ),
    );
    expect(nul.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(nul.body)).toMatchObject({ code: 'InvalidText' });
    const huge = await rawRequest(
      port,
      Buffer.from(
        `GET /api/version?x=${'a'.repeat(100_000)} HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`,
      ),
    );
    expect(huge.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(huge.body)).toMatchObject({ code: 'BadRequest' });
  });

  it('an HTTP/1.1 request without Host answers 400 in the §8 shape with the security headers (issue #32 C.8)', async () => {
    for (const path of ['/api/version', '/api/bo/getSites?id=1', '/rapports']) {
      const res = await rawRequest(
        port,
        Buffer.from(`GET ${path} HTTP/1.1${CRLF}Connection: close${CRLF}${CRLF}`),
      );
      expect(res.status, path).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(res.body), path).toMatchObject({ code: 'BadRequest', details: { name: 'host' } });
      expect(res.head, path).toMatch(/^x-content-type-options: nosniff$/im);
      expect(res.head, path).toMatch(/^content-security-policy: /im);
    }
    // HTTP/1.0 has no Host requirement.
    const old = await rawRequest(port, Buffer.from(`GET /api/version HTTP/1.0${CRLF}${CRLF}`));
    expect(old.status).toBe('HTTP/1.1 200 OK');
  });

  it('what the HTTP parser refuses (headers too large) carries the security headers too', async () => {
    const huge = await rawRequest(
      port,
      Buffer.from(
        `GET /api/version?x=${'a'.repeat(100_000)} HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`,
      ),
    );
    expect(huge.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(huge.head).toMatch(/^x-content-type-options: nosniff$/im);
    expect(huge.head).toMatch(/^content-security-policy: /im);
  });

  it('a Basic header of "a\\0:b" answers 401 Unauthorized', async () => {
    const credentials = Buffer.from('a\u0000:b').toString('base64');
    const res = await rawRequest(
      port,
      Buffer.from(
        `GET /api/bo/getSites?id=1 HTTP/1.1${CRLF}Host: x${CRLF}Authorization: Basic ${credentials}${CRLF}X-Requested-With: XMLHttpRequest${CRLF}Connection: close${CRLF}${CRLF}`,
      ),
    );
    expect(res.status).toBe('HTTP/1.1 401 Unauthorized');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'Unauthorized' });
  });

  it('a JSON body with a raw 0xFF answers 400 InvalidText to a signed-in user, 401 without a session', async () => {
    const id = await t.createUser('marie');
    const { authorization } = await t.signIn('marie');
    const body = Buffer.from([...Buffer.from('{"libelle":"'), 0xff, ...Buffer.from('","sites":[]}')]);
    const post = (auth: string) =>
      rawRequest(
        port,
        Buffer.concat([
          Buffer.from(
            `POST /api/bo/favoris/save?id=${id} HTTP/1.1${CRLF}Host: x${CRLF}${auth}Content-Type: application/json${CRLF}` +
              `Content-Length: ${body.length}${CRLF}X-Requested-With: XMLHttpRequest${CRLF}Connection: close${CRLF}${CRLF}`,
          ),
          body,
        ]),
      );
    const signedIn = await post(`Authorization: ${authorization}${CRLF}`);
    expect(signedIn.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(signedIn.body)).toMatchObject({ code: 'InvalidText', details: { where: 'body' } });
    // Without a session the rights guard answers first; the body is never read.
    expect((await post('')).status).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('wrote no error line', () => {
    expect(t.errorLines()).toEqual([]);
  });
});
