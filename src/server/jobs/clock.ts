/**
 * The queue's clock (issue #28): once a minute, on one instance (a pg-boss schedule), the due
 * sources are asked for the items due since the last tick, and each item is queued under its
 * singleton key. The last tick is kept in `job_clock`, under a row lock, so a stopped chain
 * catches up the minutes it missed (at most {@link CATCH_UP_HOURS} h) and two ticks of one
 * minute queue nothing twice (the singleton keys guard the rest).
 */
import type pg from 'pg';
import type { DueItem, DueSource } from './contract.ts';

/** The pg-boss queue of the clock's minute. */
export const CLOCK_KIND = 'jobs.clock';

/** Hours of missed minutes a restarted chain catches up; older due items are dropped. */
export const CATCH_UP_HOURS = 24;

const MINUTE_MS = 60_000;

/** `at` rounded down to its minute. */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * One tick at `now`: asks each source for (`from`, `to`] with `to` = `now`'s minute and `from` the
 * last tick (or one minute before `to` at the very first tick, or `to` − 24 h after a long stop),
 * queues every item with `enqueue`, then records `to`. A source that throws leaves the last tick
 * where it was (its items are asked again next minute; those queued already are not queued twice).
 * @returns how many items were queued (not counting those queued before).
 * @throws the first source's or queue's error.
 */
export async function tickClock(
  pool: pg.Pool,
  sources: readonly DueSource[],
  now: Date,
  enqueue: (item: DueItem<unknown>) => Promise<string | null>,
): Promise<number> {
  const to = minuteOf(now);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO job_clock (name, last_tick) VALUES ('minute', $1) ON CONFLICT (name) DO NOTHING`,
      [new Date(to.getTime() - MINUTE_MS)],
    );
    const { rows } = await client.query<{ lastTick: Date }>(
      `SELECT last_tick AS "lastTick" FROM job_clock WHERE name = 'minute' FOR UPDATE`,
    );
    const oldest = to.getTime() - CATCH_UP_HOURS * 3600_000;
    const from = new Date(Math.max(rows[0]!.lastTick.getTime(), oldest));
    let queued = 0;
    if (from < to) {
      for (const source of sources) {
        for (const item of await source.due(pool, from, to)) {
          if ((await enqueue(item)) !== null) queued++;
        }
      }
      await client.query(`UPDATE job_clock SET last_tick = $1 WHERE name = 'minute'`, [to]);
    }
    await client.query('COMMIT');
    return queued;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/**
 * A due source of one `kind` due every day at `hour`:`minute` in the server's time zone, with
 * data `{}` and the key `kind:YYYY-MM-DDTHH:mmZ` of the UTC minute (once per day for the chain).
 */
export function dailyAt(kind: string, hour: number, minute: number): DueSource {
  return {
    name: `${kind} daily at ${hour}:${String(minute).padStart(2, '0')}`,
    async due(_pool, from, to) {
      const items: DueItem<unknown>[] = [];
      for (let t = minuteOf(from).getTime() + MINUTE_MS; t <= to.getTime(); t += MINUTE_MS) {
        const at = new Date(t);
        if (at.getHours() === hour && at.getMinutes() === minute) items.push(dueAt(kind, at));
      }
      return items;
    },
  };
}

/**
 * A due source of one `kind` due every `minutes` minutes (UTC minutes divisible by it). Only the
 * latest due minute of the asked range is answered: after a stop, one run catches up, not one
 * per missed minute (for work that only needs doing again, like a cache warm-up).
 */
export function everyMinutes(kind: string, minutes: number): DueSource {
  return {
    name: `${kind} every ${minutes} min`,
    async due(_pool, from, to) {
      const items: DueItem<unknown>[] = [];
      for (let t = minuteOf(from).getTime() + MINUTE_MS; t <= to.getTime(); t += MINUTE_MS) {
        if ((t / MINUTE_MS) % minutes === 0) items.push(dueAt(kind, new Date(t)));
      }
      return items.slice(-1);
    },
  };
}

function dueAt(kind: string, at: Date): DueItem<unknown> {
  return { kind, data: {}, plannedAt: at, singletonKey: `${kind}:${at.toISOString().slice(0, 16)}Z` };
}
