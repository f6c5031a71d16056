import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The suites run again on a Citus cluster (issue #33, decision record 0042): `.ci/run`'s Citus
 * stage starts one with scripts/citus.sh and runs `TEST_CITUS=1 TEST_DATABASE_URL=<coordinator>
 * vitest run -c vitest.citus.config.ts`. Each test file's database is built and distributed anew
 * (tests/helpers/citus.ts: Citus takes no template), so only the suites that prove a point run
 * here: each point of issue #33 (docs/operations/distributed-postgresql.md, "What passes").
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Only the base's exclusions that are not the parity suite, which runs here only.
    exclude: (base.test?.exclude ?? []).filter((f) => f !== 'tests/reports/citus-parity.test.ts'),
    // Replaces the base list (mergeConfig would add to it).
    include: [
      'tests/server/citus.test.ts',
      'tests/reports/finance/finance.test.ts',
      'tests/reports/sales-analyses/analyses.test.ts',
      'tests/import/import.test.ts',
      'tests/server/jobs/queue.test.ts',
      'tests/server/jobs/app-jobs.test.ts',
      'tests/server/administration/audit.test.ts',
      'tests/server/administration/users.test.ts',
      'tests/server/change-feed.test.ts',
      'tests/reports/aggregates.test.ts',
      'tests/import/data-loads.test.ts',
      'tests/reports/sales-analyses/demo.test.ts',
      'tests/reports/citus-parity.test.ts',
      'tests/server/administration/companies.test.ts',
      'tests/server/outbox-batch.test.ts',
      'tests/server/events.test.ts',
      'tests/server/counting/receipts.test.ts',
      'tests/reports/api-exports.test.ts',
      'tests/reports/operations/operations.test.ts',
      'tests/server/administration/sites.test.ts',
      'tests/reports/receipts-report.test.ts',
    ],
  },
});
