/**
 * The saved FEC account plan of a company (issue #29, docs/decisions/0037, table
 * fec_account_plans of migration 0017): read merged over the defaults, saved whole with its
 * audit entry in the caller's transaction.
 */
import { type FecPlan, type FecPlanInput, MAX_PLAN_LABEL } from '../../contract/fec.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { type AccountPlan, defaultAccountPlan, isPcgAccount } from './account-plan.ts';
import { foreignCurrencySites } from './company-fec.ts';

/** The saved accounts of company `companyId` (role → account), empty when none is saved. */
async function savedAccounts(db: Queryable, companyId: number): Promise<AccountPlan> {
  const { rows } = await db.query<{ role: string; account: string; label: string }>(
    'SELECT role, account, label FROM fec_account_plans WHERE company_id = $1',
    [companyId],
  );
  return Object.fromEntries(rows.map((r) => [r.role, { account: r.account, label: r.label }]));
}

/**
 * The plan company `companyId`'s FEC is written with: the default plan (decision 0037) with the
 * company's saved accounts over it. Roles saved but unknown to the defaults are ignored.
 */
export async function companyPlan(db: Queryable, companyId: number): Promise<AccountPlan> {
  const saved = await savedAccounts(db, companyId);
  const plan = defaultAccountPlan();
  for (const role of Object.keys(plan)) {
    const account = saved[role];
    if (account) plan[role] = account;
  }
  return plan;
}

/**
 * GET bo/fec/plan's answer for company `companyId`: every role, the plan's and the default account,
 * and the company's sites not kept in EUR (left out of its FEC, decision 0037).
 * @throws DomainError notFound `NotFound` for an unknown company.
 */
export async function companyPlanAnswer(db: Queryable, companyId: number): Promise<FecPlan> {
  const company = await db.query('SELECT 1 FROM companies WHERE id = $1', [companyId]);
  if (company.rowCount === 0) throw new DomainError('notFound', 'NotFound', 'no such company');
  const saved = await savedAccounts(db, companyId);
  const defaults = defaultAccountPlan();
  return {
    societe: companyId,
    sitesHorsEuro: await foreignCurrencySites(db, companyId),
    saved: Object.keys(saved).length > 0,
    accounts: Object.entries(defaults).map(([role, d]) => {
      const own = saved[role] ?? d;
      return {
        role,
        account: own.account,
        label: own.label,
        defaultAccount: d.account,
        defaultLabel: d.label,
      };
    }),
  };
}

/**
 * Checks `input` and returns the plan it makes (defaults for the roles left out).
 * @throws DomainError invalid `InvalidField` with details `{ field: 'role' | 'account' | 'label',
 *   role, index }`: an unknown or repeated role, an account that is not a PCG number (digits, class
 *   1–8, at least 3 digits), an empty or too long label.
 */
export function checkPlanInput(input: FecPlanInput): AccountPlan {
  const plan = defaultAccountPlan();
  const seen = new Set<string>();
  input.accounts.forEach((a, index) => {
    if (!(a.role in plan) || seen.has(a.role)) {
      throw new DomainError('invalid', 'InvalidField', `unknown or repeated role ${a.role}`, {
        field: 'role',
        role: a.role,
        index,
      });
    }
    seen.add(a.role);
    const account = a.account.trim();
    if (!isPcgAccount(account)) {
      throw new DomainError(
        'invalid',
        'InvalidField',
        `${a.role}: ${account} is not a PCG account (class 1-8)`,
        {
          field: 'account',
          role: a.role,
          index,
        },
      );
    }
    const label = a.label.trim().replace(/\s+/g, ' ');
    if (label === '' || label.length > MAX_PLAN_LABEL) {
      throw new DomainError(
        'invalid',
        'InvalidField',
        `${a.role}: label empty or longer than ${MAX_PLAN_LABEL}`,
        {
          field: 'label',
          role: a.role,
          index,
        },
      );
    }
    plan[a.role] = { account, label };
  });
  return plan;
}

/**
 * Saves the plan of company `companyId` from `input` (checked by {@link checkPlanInput}; a role
 * left out gets its default), replacing the saved one, with the audit entry `fecPlan.save`
 * (before / after: role → `account label`). Run it in the write's transaction `tx`.
 * @throws DomainError `InvalidField` (nothing saved), `NotFound` for an unknown company.
 */
export async function saveCompanyPlan(
  tx: Queryable,
  actor: AuditActor,
  companyId: number,
  input: FecPlanInput,
): Promise<FecPlan> {
  const plan = checkPlanInput(input);
  const company = await tx.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
  if (company.rowCount === 0) throw new DomainError('notFound', 'NotFound', 'no such company');
  const before = await companyPlan(tx, companyId);
  await tx.query('DELETE FROM fec_account_plans WHERE company_id = $1', [companyId]);
  const roles = Object.keys(plan);
  await tx.query(
    `INSERT INTO fec_account_plans (company_id, role, account, label)
     SELECT $1, r.role, r.account, r.label
       FROM unnest($2::text[], $3::text[], $4::text[]) AS r(role, account, label)`,
    [companyId, roles, roles.map((r) => plan[r]?.account), roles.map((r) => plan[r]?.label)],
  );
  const flat = (p: AccountPlan) =>
    Object.fromEntries(Object.entries(p).map(([r, a]) => [r, `${a.account} ${a.label}`]));
  await recordAudit(tx, actor, {
    action: 'fecPlan.save',
    targetId: companyId,
    before: flat(before),
    after: flat(plan),
  });
  return companyPlanAnswer(tx, companyId);
}
