/**
 * Follows a purge run (issue #30, decision 0040) the way the screen does: GET bo/purgeRuns until
 * the run has ended. A wait, not a timed assertion: it gives up only after a minute.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PurgeRun } from '../../src/contract/purge.ts';
import type { AuthHeaders, TestApp } from './app.ts';

/** The run `runId` of user `userId` once SUCCEEDED or FAILED. @throws Error after a minute */
export async function endedPurgeRun(t: TestApp, headers: AuthHeaders, userId: number, runId: string) {
  for (let i = 0; i < 600; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/purgeRuns?id=${userId}`, headers });
    const run = res.json<PurgeRun[]>().find((r) => r.runId === runId);
    if (run && (run.statut === 'SUCCEEDED' || run.statut === 'FAILED')) return run;
    await sleep(100);
  }
  throw new Error(`purge run ${runId} still not ended after a minute`);
}
