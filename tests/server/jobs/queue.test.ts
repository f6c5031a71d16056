/**
 * The job queue on real PostgreSQL (issue #28): two queue instances on one database, the clock
 * driven with chosen instants, retries and the run history.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DueSource, JobDefinition } from '../../../src/server/jobs/contract.ts';
import type { JobQueue } from '../../../src/server/jobs/queue.ts';
import { getRun, listRuns } from '../../../src/server/jobs/run-records.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { runsWith, startQueue, waitUntil } from './queue-helpers.ts';

let database: TestDatabase;
let otherPool: pg.Pool;
let a: JobQueue;
let b: JobQueue;
/** Run ids each instance ran the `test.count` job for. */
const ranBy: { a: string[]; b: string[] } = { a: [], b: [] };
/** What the due source was asked: (from, to] per call. */
const asked: { from: Date; to: Date }[] = [];

function countJob(into: string[]): JobDefinition<{ n: number }> {
  return {
    kind: 'test.count',
    async run(_data, ctx) {
      into.push(ctx.runId);
      await ctx.recordFile({ name: `file-${ctx.runId}.csv`, bytes: 12 });
    },
  };
}

const failingJob: JobDefinition<Record<string, never>> = {
  kind: 'test.fail',
  retryLimit: 2,
  retryDelaySeconds: 0,
  async run() {
    throw new Error('the printer is on fire');
  },
};

/** Due every minute: one `test.count` item per minute of (from, to]; none past 10 minutes (kept short). */
const everyMinute: DueSource = {
  name: 'every minute',
  async due(_pool, from, to) {
    asked.push({ from, to });
    const items = [];
    if (to.getTime() - from.getTime() > 600_000) return [];
    for (let t = from.getTime() + 60_000; t <= to.getTime(); t += 60_000) {
      const at = new Date(t);
      items.push({
        kind: 'test.count',
        data: { n: t },
        plannedAt: at,
        singletonKey: `count:${at.toISOString()}`,
      });
    }
    return items;
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  otherPool = new pg.Pool({ ...database.connection, max: 4 });
  a = await startQueue(database.pool, [countJob(ranBy.a), failingJob], { sources: [everyMinute] });
  b = await startQueue(otherPool, [countJob(ranBy.b), failingJob], { sources: [everyMinute] });
}, 60_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await otherPool?.end();
  await database?.close();
});

describe('the job queue', () => {
  it('runs each queued job once, with two queue instances working on one database', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await (i % 2 ? a : b).enqueue('test.count', { n: i }))!);
    await waitUntil(async () => (await runsWith(database.pool, 'test.count', 'succeeded')) === 10);
    const ran = [...ranBy.a, ...ranBy.b];
    expect(ran.sort()).toEqual([...ids].sort());
    const run = (await getRun(database.pool, ids[0]!))!;
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    expect(run.files).toEqual([{ name: `file-${ids[0]}.csv`, bytes: 12 }]);
    expect(run.startedAt!.getTime()).toBeLessThanOrEqual(run.endedAt!.getTime());
  });

  it('queues an item once under its singleton key, whichever instance queues it', async () => {
    const first = await a.enqueue('test.count', { n: 'first' }, { singletonKey: 'same' });
    const second = await b.enqueue('test.count', { n: 'second' }, { singletonKey: 'same' });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(await listRuns(database.pool, { kind: 'test.count', data: { n: 'second' } })).toEqual([]);
  });

  it('a due source asked by two instances at the same minute queues its items once, and catches up missed minutes', async () => {
    const minute = new Date('2026-12-07T05:00:30Z');
    const queued = await Promise.all([a.tick(minute), b.tick(minute)]);
    // The first tick ever starts one minute back: one item, queued by one of the two.
    expect(queued.sort()).toEqual([0, 1]);
    // Five minutes later (the server was stopped): the four missed minutes and this one, once.
    const later = new Date('2026-12-07T05:05:10Z');
    expect(await Promise.all([b.tick(later), a.tick(later)])).toEqual(expect.arrayContaining([5, 0]));
    const runs = await listRuns(database.pool, { kind: 'test.count', limit: 500 });
    const keys = runs.map((r) => r.singletonKey).filter((k) => k?.startsWith('count:2026-12-07T05'));
    expect(keys.sort()).toEqual([
      'count:2026-12-07T05:00:00.000Z',
      'count:2026-12-07T05:01:00.000Z',
      'count:2026-12-07T05:02:00.000Z',
      'count:2026-12-07T05:03:00.000Z',
      'count:2026-12-07T05:04:00.000Z',
      'count:2026-12-07T05:05:00.000Z',
    ]);
    const planned = runs.find((r) => r.singletonKey === 'count:2026-12-07T05:03:00.000Z')!;
    expect(planned.plannedAt.toISOString()).toBe('2026-12-07T05:03:00.000Z');
  });

  it('after a long stop the clock catches up 24 hours at most', async () => {
    asked.length = 0;
    const twoDaysLater = new Date('2026-12-09T05:05:00Z');
    await a.tick(twoDaysLater);
    expect(asked).toEqual([{ from: new Date('2026-12-08T05:05:00Z'), to: twoDaysLater }]);
  });

  it('a job that throws retries, then shows failed with its error and attempts', async () => {
    const id = (await a.enqueue('test.fail', {}))!;
    await waitUntil(async () => (await getRun(database.pool, id))?.status === 'failed');
    expect(await getRun(database.pool, id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'the printer is on fire',
    });
  });

  it('lists runs by a data field, newest first, page by page', async () => {
    for (let i = 0; i < 3; i++) await a.enqueue('test.count', { subscriptionId: 12, i });
    await a.enqueue('test.count', { subscriptionId: 13 });
    const page1 = await listRuns(database.pool, { data: { subscriptionId: 12 }, limit: 2 });
    expect(page1.map((r) => (r.data as { i: number }).i)).toEqual([2, 1]);
    const last = page1[1]!;
    const page2 = await listRuns(database.pool, {
      data: { subscriptionId: 12 },
      limit: 2,
      before: { queuedAt: last.queuedAt, id: last.id },
    });
    expect(page2.map((r) => (r.data as { i: number }).i)).toEqual([0]);
  });
  it('runs as many jobs of a kind at once as its concurrency says, on one instance', async () => {
    // Each run waits until the other has started: with one run at a time the first never ends.
    let started = 0;
    let release = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pairJob: JobDefinition<Record<string, never>> = {
      kind: 'test.pair',
      concurrency: 2,
      retryLimit: 0,
      async run() {
        started++;
        if (started === 2) release();
        await bothStarted;
      },
    };
    const pool = new pg.Pool({ ...database.connection, max: 4 });
    const queue = await startQueue(pool, [pairJob]);
    try {
      await queue.enqueue('test.pair', {});
      await queue.enqueue('test.pair', {});
      await waitUntil(async () => (await runsWith(database.pool, 'test.pair', 'succeeded')) === 2);
      expect(started).toBe(2);
    } finally {
      release();
      await queue.stop();
      await pool.end();
    }
  });
});
