/**
 * The counting API (issue #3, contract in src/contract/counting.ts): counting rules, cash
 * counts, safe counts and their countersignature, manager receipts and their e-mails. Every
 * write is scope-checked and runs in the idempotent write transaction (plugins/idempotency.ts).
 */
import type { FastifyInstance } from 'fastify';
import { cashCountRoutes } from './cash-count-routes.ts';
import { countersignRoutes } from './countersign-routes.ts';
import { mailRoutes } from './mail-routes.ts';
import { receiptRoutes } from './receipt-routes.ts';
import { ruleRoutes } from './rule-routes.ts';
import { safeCountRoutes } from './safe-count-routes.ts';
import type { CountingOptions } from './counting-options.ts';

/** Registers every counting route module with the same options (app.ts registers this one). */
export async function countingRoutes(app: FastifyInstance, options: CountingOptions) {
  await app.register(ruleRoutes, options);
  await app.register(cashCountRoutes, options);
  await app.register(receiptRoutes, options);
  await app.register(safeCountRoutes, options);
  await app.register(countersignRoutes, options);
  await app.register(mailRoutes, options);
}
