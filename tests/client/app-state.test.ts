/**
 * SPEC.md §4 rules for the server version and the distribution, against a real HTTP server:
 * "CAS" in the version switches global mode on; a failed version read gives 'error' with global
 * and total off; the distribution names the client, and "TOTAL" switches total mode off.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, startTestApi, type TestApi } from './api-server.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  vi.stubEnv('VITE_API_BASE', api.base);
});
afterAll(async () => {
  await api.close();
  vi.unstubAllEnvs();
});

async function freshAppState() {
  vi.resetModules();
  return import('../../src/client/lib/app-state.ts');
}

beforeEach(() => {
  api.on('version', (_req, res) => json(res, 200, { version: '1.3.0' }));
  api.on('distribution', (_req, res) => json(res, 200, { nom: 'Brasseries du Port' }));
});

describe('server information', () => {
  it('stores the version and the distribution name; total mode on for any name but TOTAL', async () => {
    const { appState, loadServerInfo } = await freshAppState();
    await loadServerInfo();
    expect(appState).toMatchObject({
      serverVersion: '1.3.0',
      isGlobal: false,
      client: 'Brasseries du Port',
      isTotal: true,
    });
  });

  it('switches global mode on when the version contains CAS, and total mode off for TOTAL', async () => {
    api.on('version', (_req, res) => json(res, 200, { version: '2.0-CAS' }));
    api.on('distribution', (_req, res) => json(res, 200, { nom: 'TOTAL' }));
    const { appState, loadServerInfo } = await freshAppState();
    await loadServerInfo();
    expect(appState).toMatchObject({
      serverVersion: '2.0-CAS',
      isGlobal: true,
      client: 'TOTAL',
      isTotal: false,
    });
  });

  it("marks the version 'error' with global and total off when it cannot be read", async () => {
    api.on('version', (_req, res) => json(res, 500, { code: 'InternalError', message: 'down' }));
    api.on('distribution', (_req, res) => json(res, 500, { code: 'InternalError', message: 'down' }));
    const { appState, loadServerInfo } = await freshAppState();
    await loadServerInfo();
    expect(appState).toMatchObject({ serverVersion: 'error', isGlobal: false, isTotal: false, client: null });
  });

  it('tells phones and tablets from desktops by their user agent', async () => {
    const { isMobileUserAgent } = await freshAppState();
    expect(isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(
      true,
    );
    expect(
      isMobileUserAgent(
        'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/126 Safari/537.36',
      ),
    ).toBe(true);
    expect(
      isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126 Safari/537.36'),
    ).toBe(false);
  });
});
