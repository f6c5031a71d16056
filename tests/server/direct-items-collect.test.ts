/**
 * Which routes a batch may run itself (outbox/direct-items.ts DirectItems.collect): only a
 * `config.write` route with one method, a 200 answer schema, no rate limit and no hooks of its
 * own; any other that declares `config.batchItem` is a start-up error naming the route.
 */
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DirectItems } from '../../src/server/outbox/direct-items.ts';

const work = async () => ({ ok: true });

/** Registers `route` on an app whose first onRoute hook collects; resolves the collector, or rejects with the start-up error. */
async function register(route: Partial<RouteOptions>) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const items = new DirectItems();
  app.addHook('onRoute', (r) => items.collect(r));
  app.route({
    method: 'POST',
    url: '/api/bo/comptage/save',
    handler: async () => ({ ok: true }),
    ...route,
    config: { rights: 'POST bo/comptage/save', write: true, batchItem: work, ...route.config },
    schema: {
      body: z.object({ a: z.number() }),
      response: { 200: z.object({ ok: z.boolean() }) },
      ...route.schema,
    },
  } as RouteOptions);
  await app.ready();
  await app.close();
  return items;
}

describe('routes a batch runs itself', () => {
  it('keeps a config.write route with a 200 schema', async () => {
    const items = await register({});
    expect(items.find('POST', '/api/bo/comptage/save')).toBeDefined();
    expect(items.find('POST', '/api/coffre/save')).toBeUndefined();
  });

  it('refuses, naming the route, one that could not run outside the pipeline', async () => {
    const cases: [Partial<RouteOptions>, string][] = [
      [{ config: { write: false } }, 'is not config.write'],
      [{ config: { rateLimit: { max: 3 } } } as Partial<RouteOptions>, 'has a rate limit'],
      [{ preHandler: async () => undefined }, 'has its own preHandler hook'],
      [{ onSend: async (_r, _p, payload) => payload }, 'has its own onSend hook'],
      [{ schema: { response: { 201: z.object({}) } } }, 'has no 200 answer schema'],
    ];
    for (const [route, why] of cases) {
      await expect(register(route)).rejects.toThrow(
        `Route POST /api/bo/comptage/save declares config.batchItem but ${why}`,
      );
    }
  });
});
