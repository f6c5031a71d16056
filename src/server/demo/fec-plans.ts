/**
 * The demo chain's FEC account plans (issue #29, decision 0037 § "Demo"): each demo company gets
 * an explicit saved plan (rows of `fec_account_plans`), so the demo accountant sees on /fec a plan
 * the company owns ("the company has its own account plan") rather than the defaults. Every role
 * takes its default PCG account of decision 0037, except card payments, which go to a sub-account
 * of 5115 per company (51151, 51152…, "Cartes bancaires à encaisser <enseigne>"), as a chain whose
 * companies bank their card takings with different acquirers would keep them.
 */
import type pg from 'pg';
import { defaultAccountPlan, paymentKey } from '../fec/account-plan.ts';

/**
 * Saves the plan of every company of `companyIds` (in the order of the demo's COMPANIES) through
 * `client`, inside the demo's transaction. @returns the number of plans saved. @throws the
 * database's error.
 */
export async function createDemoFecPlans(
  client: pg.ClientBase,
  companyIds: readonly number[],
): Promise<number> {
  for (const [index, companyId] of companyIds.entries()) {
    const { rows } = await client.query<{ enseigne: string | null }>(
      'SELECT enseigne FROM companies WHERE id = $1',
      [companyId],
    );
    const plan = defaultAccountPlan();
    plan[paymentKey('CARD')] = {
      account: `5115${index + 1}`,
      label: `Cartes bancaires à encaisser ${rows[0]?.enseigne ?? ''}`.trim(),
    };
    const roles = Object.entries(plan);
    await client.query(
      `INSERT INTO fec_account_plans (company_id, role, account, label)
       SELECT $1, role, account, label FROM unnest($2::text[], $3::text[], $4::text[]) AS p(role, account, label)`,
      [companyId, roles.map(([r]) => r), roles.map(([, a]) => a.account), roles.map(([, a]) => a.label)],
    );
  }
  return companyIds.length;
}
