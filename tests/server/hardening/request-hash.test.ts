import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestIdentity } from '../../../src/server/plugins/idempotency.ts';
import { isCleanValue } from '../../../src/server/plugins/input-guard.ts';

/**
 * The recursive canonical form the hash used before it became iterative: keys stored under it
 * (kept IDEMPOTENCY_KEY_TTL_DAYS days) must still match their repeats, so both must agree.
 */
function recursiveCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveCanonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${recursiveCanonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The hash of a request of `body` to one path, as the idempotency plugin computes it. */
const hashOf = (body: unknown) =>
  requestIdentity({ method: 'POST', url: '/api/coffre/save?id=3&_=17', body } as FastifyRequest).hash;

describe('the idempotency hash of a request', () => {
  it('is the one the recursive form gave, for bodies of every shape', async () => {
    const { createHash } = await import('node:crypto');
    const bodies: unknown[] = [
      null,
      'texte',
      42,
      [],
      {},
      { b: 1, a: [1, 'x', null, undefined, { d: true, c: 'é' }], z: undefined },
      [{ y: [[], {}], x: -1.5 }, 'a,b', { '"k"': 'v' }],
    ];
    for (const body of bodies) {
      const text = `POST /api/coffre/save\n[["id","3"]]\n${recursiveCanonical(body)}`;
      expect(hashOf(body), JSON.stringify(body)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it('does not overflow on a body nested 100,000 deep or an array of 500,000 items', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(hashOf(deep)).toMatch(/^[0-9a-f]{64}$/);
    const wide = new Array(500_000).fill(0);
    expect(hashOf(wide)).toMatch(/^[0-9a-f]{64}$/);
    expect(isCleanValue(wide)).toBe(true);
  });
});
