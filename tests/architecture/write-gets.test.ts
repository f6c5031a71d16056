/**
 * The GETs that change data are declared once (contract/rights.ts WRITE_GETS, issue #17 item 5)
 * and the declaration holds: the rights guard's start-up check (plugins/rights-guard.ts
 * checkRouteRights, the onRoute hook of every API route) refuses a declared write GET registered
 * as a read or with a HEAD twin, and a GET marked as a write without the declaration; the service
 * worker's allow-list (contract/offline-reads.ts) never keeps their answers.
 */
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isCacheableRead } from '../../src/contract/offline-reads.ts';
import { API_RIGHTS, WRITE_GETS } from '../../src/contract/rights.ts';
import { checkRouteRights } from '../../src/server/plugins/rights-guard.ts';

/** A route as Fastify hands it to onRoute hooks, for rights key `key`. */
function route(key: string, extra: Partial<RouteOptions> = {}, config: object = {}): RouteOptions {
  const [method, path] = key.split(' ') as [string, string];
  return {
    method: method as 'GET',
    url: `/api/${path}`,
    handler: () => {},
    ...extra,
    config: { rights: key, ...config },
  } as RouteOptions;
}

describe('GETs that change data', () => {
  it('are declared among the API routes, as GETs', () => {
    for (const key of WRITE_GETS) {
      expect(Object.hasOwn(API_RIGHTS, key), key).toBe(true);
      expect(key.startsWith('GET '), key).toBe(true);
    }
    expect(new Set(WRITE_GETS).size).toBe(WRITE_GETS.length);
  });

  it('start only with config.write and no HEAD twin', () => {
    const key = 'GET bo/favoris/remove';
    expect(() => checkRouteRights(route(key, { exposeHeadRoute: false }))).toThrow(
      /changes data \(WRITE_GETS\): register it with config\.write: true/,
    );
    expect(() => checkRouteRights(route(key, {}, { write: true }))).toThrow(/exposeHeadRoute: false/);
    expect(() =>
      checkRouteRights(route(key, { method: 'HEAD', exposeHeadRoute: false }, { write: true })),
    ).toThrow(/must have no HEAD route/);
    expect(() =>
      checkRouteRights(route(key, { method: ['GET', 'HEAD'], exposeHeadRoute: false }, { write: true })),
    ).toThrow(/must have no HEAD route/);
    for (const k of WRITE_GETS) {
      expect(() => checkRouteRights(route(k, { exposeHeadRoute: false }, { write: true })), k).not.toThrow();
    }
  });

  it('cannot be marked as writes without being declared', () => {
    expect(() =>
      checkRouteRights(route('GET bo/getSites', { exposeHeadRoute: false }, { write: true })),
    ).toThrow(/"GET bo\/getSites" is not in WRITE_GETS/);
    // A plain read keeps its HEAD twin, and a POST needs no declaration.
    expect(() => checkRouteRights(route('GET bo/getSites'))).not.toThrow();
    expect(() => checkRouteRights(route('GET bo/getSites', { method: 'HEAD' }))).not.toThrow();
    expect(() => checkRouteRights(route('POST bo/favoris/save', {}, { write: true }))).not.toThrow();
  });

  it('are never kept by the service worker, whatever their parameters', () => {
    for (const key of WRITE_GETS) {
      const path = key.slice('GET '.length);
      expect(isCacheableRead(path, new URLSearchParams()), key).toBe(false);
      expect(isCacheableRead(path, new URLSearchParams('format=JSON&ACTION=getComptages')), key).toBe(false);
    }
    // The guard is not blanket: a plain read is still kept.
    expect(isCacheableRead('bo/favoris', new URLSearchParams())).toBe(true);
  });
});
