/**
 * The FEC of one company for a period (issue #29, docs/decisions/0037): reads the company's
 * SIREN and EUR sites, their VAT and payment figures per site and fiscal date through the
 * finance reports' own queries (figures.ts, the sums of the Z report), builds the sales
 * entries, writes the file and runs the checker on it before anything is offered. Sites kept
 * in another currency are never left out silently: the FEC is refused
 * ({@link ForeignCurrencySitesError}) unless the caller asked to leave them out, and then the
 * answer lists them (decision 0037 § "Sites not in euros").
 */
import type { Database } from '../db/connect.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { paymentFigures, vatFigures } from '../reports/sales-analyses/figures.ts';
import type { ReportRequest, ReportSite } from '../reports/types.ts';
import type { AccountPlan } from './account-plan.ts';
import {
  buildSalesEntries,
  type FecEntry,
  fecBytes,
  fecFileName,
  fecText,
  type UnpaidFigure,
} from './entries.ts';
import { checkFec, type FecViolation } from './fec-checker.ts';

/** A company's FEC, checked: `violations` empty means `bytes` may be offered. */
export interface CompanyFec {
  siren: string;
  fileName: string;
  entries: FecEntry[];
  /** The decoded text (what the checker read). */
  text: string;
  /** The file as offered: ISO 8859-15. */
  bytes: Buffer;
  violations: FecViolation[];
  /** The company's sites not kept in EUR, left out of the file (empty when none). */
  excludedSites: ForeignSite[];
}

/** A site of the company whose currency is not the euro: it cannot be written in the FEC. */
export interface ForeignSite {
  id: number;
  libelle: string;
  /** ISO 4217 code of the site's currency (`GBP`). */
  devise: string;
}

/**
 * The company has sites not kept in EUR and the caller did not ask to leave them out: a FEC is
 * in euros, and the foreign-currency fields (Montantdevise, Idevise) need an exchange rate we
 * do not have (decision 0037).
 */
export class ForeignCurrencySitesError extends Error {
  readonly sites: ForeignSite[];
  constructor(sites: ForeignSite[]) {
    super(`sites not in EUR: ${sites.map((s) => `${s.id} (${s.devise})`).join(', ')}`);
    this.sites = sites;
  }
}

/** The sites of company `companyId` not kept in EUR, by id (decision 0037). */
export async function foreignCurrencySites(db: Queryable, companyId: number): Promise<ForeignSite[]> {
  const { rows } = await db.query<ForeignSite>(
    `SELECT id, libelle, currency AS devise FROM sites WHERE company_id = $1 AND currency <> 'EUR' ORDER BY id`,
    [companyId],
  );
  return rows;
}

/**
 * True when every site of company `companyId` is among `siteIds` (a FEC is the whole company's:
 * a user who does not see one of its sites cannot export it). A company without sites: true.
 */
export async function companyWithinScope(
  db: Queryable,
  companyId: number,
  siteIds: readonly number[],
): Promise<boolean> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM sites WHERE company_id = $1', [companyId]);
  return rows.every((s) => siteIds.includes(s.id));
}

/**
 * Refuses a caller whose scope `siteIds` misses a site of company `companyId` (see
 * {@link companyWithinScope}).
 * @throws DomainError forbidden `Forbidden`.
 */
export async function requireCompanyScope(
  db: Queryable,
  companyId: number,
  siteIds: readonly number[],
): Promise<void> {
  if (!(await companyWithinScope(db, companyId, siteIds))) {
    throw new DomainError('forbidden', 'Forbidden', 'a site of the company is outside the scope');
  }
}

/**
 * The company's SIREN: its own (9 digits), else the first nine digits of its SIRET (14 digits),
 * which is how a SIRET is made (schema.ts `companies.siren`); null when neither is given.
 */
export function sirenOf(siren: string | null, siret: string | null): string | null {
  if (siren && /^\d{9}$/.test(siren)) return siren;
  if (siret && /^\d{14}$/.test(siret)) return siret.slice(0, 9);
  return null;
}

/** The company has no SIREN (9 digits): the file cannot be named. */
export class NoSirenError extends Error {}

/**
 * The request the figures are read with: the company's EUR sites, the whole days of
 * `dateDebut..dateFin` (`YYYY-MM-DD`, inclusive), no filter, training tickets out — the
 * selection of a Z report over those sites and dates.
 */
function salesRequest(sites: ReportSite[], dateDebut: string, dateFin: string): ReportRequest {
  return {
    className: 'FEC',
    variant: 'Daily',
    format: 'JSON',
    language: 'fr',
    sites,
    currency: 'EUR',
    dateDebut,
    dateFin,
    fiscalDates: null,
    hours: null,
    terminals: [],
    sellers: [],
    trainingMode: false,
    params: {},
    generatedAt: new Date(),
  };
}

/**
 * The total (cents) of the tickets of `siteIds` on `dateDebut..dateFin` that have no payment row,
 * per site and fiscal date, training tickets out (as the Z report's selection). An import
 * without payment column (the London data set) gives only such tickets.
 */
async function unpaidFigures(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): Promise<UnpaidFigure[]> {
  const { rows } = await db.query<{ site_id: number; fiscal_date: string; amount: string }>(
    `SELECT t.site_id, t.fiscal_date::text AS fiscal_date, sum(t.total_cents)::text AS amount
       FROM tickets t
      WHERE t.site_id = ANY($1::int[]) AND t.fiscal_date BETWEEN $2::date AND $3::date AND NOT t.training_mode
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.site_id = t.site_id AND p.ticket_id = t.ticket_id)
      GROUP BY t.site_id, t.fiscal_date`,
    [siteIds, dateDebut, dateFin],
  );
  return rows.map((r) => ({ siteId: r.site_id, fiscalDate: r.fiscal_date, amount: Number(r.amount) }));
}

/**
 * Builds and checks the FEC of company `companyId` for `dateDebut..dateFin` with `plan`;
 * `validDate` (`YYYY-MM-DD`, today in practice) is every entry's ValidDate. The file holds the
 * company's EUR sites; its other sites refuse the FEC ({@link ForeignCurrencySitesError}) unless
 * `options.excludeForeign`, and are then listed in `excludedSites`. Throws
 * {@link NoSirenError} when the company has no SIREN, entries.ts `MissingAccountError` when the
 * plan lacks an account. Returns null when the company does not exist.
 */
export async function companyFec(
  database: Database,
  companyId: number,
  dateDebut: string,
  dateFin: string,
  validDate: string,
  plan: AccountPlan,
  options: { excludeForeign?: boolean } = {},
): Promise<CompanyFec | null> {
  const company = await database.pool.query<{
    siren: string | null;
    siret: string | null;
    enseigne: string | null;
  }>('SELECT siren, siret, enseigne FROM companies WHERE id = $1', [companyId]);
  const row = company.rows[0];
  if (!row) return null;
  const siren = sirenOf(row.siren, row.siret);
  if (!siren) throw new NoSirenError(`company ${companyId}`);
  const excludedSites = await foreignCurrencySites(database.pool, companyId);
  if (excludedSites.length > 0 && !options.excludeForeign) throw new ForeignCurrencySitesError(excludedSites);
  const { rows } = await database.pool.query<{ id: number; libelle: string; time_zone: string }>(
    `SELECT id, libelle, time_zone FROM sites WHERE company_id = $1 AND currency = 'EUR' ORDER BY id`,
    [companyId],
  );
  const sites: ReportSite[] = rows.map((s) => ({
    id: s.id,
    libelle: s.libelle,
    timeZone: s.time_zone,
    currency: 'EUR',
    enseigne: row.enseigne,
  }));
  let entries: FecEntry[] = [];
  if (sites.length > 0) {
    const request = salesRequest(sites, dateDebut, dateFin);
    const [vat, payments, unpaid] = await Promise.all([
      vatFigures(database, request, 'daySite'),
      paymentFigures(database, request, 'daySite'),
      unpaidFigures(
        database.pool,
        sites.map((s) => s.id),
        dateDebut,
        dateFin,
      ),
    ]);
    entries = buildSalesEntries(vat, payments, sites, plan, unpaid);
  }
  const fileName = fecFileName(siren, dateFin);
  const text = fecText(entries, validDate);
  return {
    siren,
    fileName,
    entries,
    text,
    bytes: fecBytes(text),
    violations: checkFec(text, fileName),
    excludedSites,
  };
}
