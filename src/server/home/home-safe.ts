/**
 * The `coffre` widget of the home dashboard (SPEC.md §1 "financial receipts and safe counting
 * with manager countersignature", §7 GET bo/home/{widget}; issue #19): what a manager must act
 * on in the morning. Each part needs its own right and is null without it (COFFRE: the safe;
 * COMPTAGE: the cash counts; RECUS: the manager receipts), so one call serves every profile.
 * The counts are read through counting/ (the same reads as the counting screens and reports);
 * only "which terminals sold yesterday" is read here, from the `daily_terminal_sales` aggregate.
 */
import type { SafeCount } from '../../contract/counting.ts';
import { HOME_AWAITING_SHOWN, type HomeSafeAnswer, type HomeSafeCount } from '../../contract/home.ts';
import { cashCounts } from '../counting/cash-counts.ts';
import { signatureStatuses } from '../counting/countersignatures.ts';
import { receipts } from '../counting/receipts.ts';
import { latestSafeCountPerSite, safeCounts } from '../counting/safe-counts.ts';
import type { Queryable } from '../db/queryable.ts';
import {
  type HomeRequest,
  requireWidgetRight,
  shiftDate,
  type WidgetContext,
  widgetContext,
} from './widget-context.ts';

/** Days back (datePerso included) in which counts waiting for a countersignature are listed. */
export const AWAITING_SIGNATURE_DAYS = 31;

function toHomeSafeCount(c: SafeCount): HomeSafeCount {
  return {
    id: c.id,
    restaurantId: c.site,
    libelle: c.libelle,
    dateFiscale: c.dateFiscale,
    countedCents: c.countedCents,
    varianceCents: c.varianceCents,
    countedAt: c.countedAt,
    countersigned: c.countersignature !== null,
  };
}

/** Terminals of `siteIds` that sold on `fiscalDate` (tickets or amounts), by site. */
async function sellingTerminals(
  db: Queryable,
  siteIds: readonly number[],
  fiscalDate: string,
): Promise<Map<number, number[]>> {
  const { rows } = await db.query<{ site_id: number; terminal_id: number }>(
    `SELECT site_id, terminal_id FROM daily_terminal_sales
      WHERE site_id = ANY($1) AND fiscal_date = $2 AND terminal_id IS NOT NULL
        AND (tickets > 0 OR net_cents <> 0)
      ORDER BY site_id, terminal_id`,
    [siteIds, fiscalDate],
  );
  const out = new Map<number, number[]>();
  for (const r of rows) out.set(r.site_id, [...(out.get(r.site_id) ?? []), r.terminal_id]);
  return out;
}

/** The COFFRE part: last count per site, counts awaiting a countersignature, sites not counted yesterday. */
async function safePart(
  db: Queryable,
  ctx: WidgetContext,
  yesterday: string,
  selling: Promise<Map<number, number[]>>,
) {
  const [latest, statuses, ofYesterday, sold] = await Promise.all([
    latestSafeCountPerSite(db, ctx.siteIds, ctx.fiscalDate),
    signatureStatuses(
      db,
      ctx.siteIds,
      shiftDate(ctx.fiscalDate, 1 - AWAITING_SIGNATURE_DAYS),
      ctx.fiscalDate,
    ),
    safeCounts(db, { siteIds: ctx.siteIds, dateDebut: yesterday, dateFin: yesterday, latestOnly: true }),
    selling,
  ]);
  const counted = new Set(ofYesterday.map((c) => c.site));
  const awaiting = statuses.data.filter((c) => c.status === 'EN_ATTENTE');
  return {
    lastCounts: ctx.sites.map((s) => {
      const count = latest.find((c) => c.site === s.id);
      return { restaurantId: s.id, libelle: s.libelle, count: count ? toHomeSafeCount(count) : null };
    }),
    // Oldest first from the read: the newest are its end.
    awaitingSignature: awaiting.slice(-HOME_AWAITING_SHOWN).reverse().map(toHomeSafeCount),
    awaitingSignatureCount: awaiting.length,
    missingYesterday: ctx.sites
      .filter((s) => sold.has(s.id) && !counted.has(s.id))
      .map((s) => ({ restaurantId: s.id, libelle: s.libelle })),
  };
}

/** The COMPTAGE part: per site, the terminals that sold yesterday without a cash count. */
async function cashCountPart(
  db: Queryable,
  ctx: WidgetContext,
  yesterday: string,
  selling: Promise<Map<number, number[]>>,
) {
  const [counts, sold] = await Promise.all([
    cashCounts(db, { siteIds: ctx.siteIds, dateDebut: yesterday, dateFin: yesterday, latestOnly: true }),
    selling,
  ]);
  const counted = new Set(counts.map((c) => `${c.site}:${c.caisse}`));
  return {
    missingYesterday: ctx.sites
      .map((s) => ({
        restaurantId: s.id,
        libelle: s.libelle,
        caisses: (sold.get(s.id) ?? []).filter((t) => !counted.has(`${s.id}:${t}`)),
      }))
      .filter((s) => s.caisses.length > 0),
  };
}

/** The RECUS part: the manager receipts of datePerso, how many and their total (cents). */
async function receiptPart(db: Queryable, ctx: WidgetContext) {
  const list = await receipts(db, {
    siteIds: ctx.siteIds,
    dateDebut: ctx.fiscalDate,
    dateFin: ctx.fiscalDate,
  });
  return { count: list.length, totalCents: list.reduce((sum, r) => sum + r.complements.montantCents, 0) };
}

/**
 * The `coffre` widget (contract/home.ts HomeSafeAnswerSchema) for datePerso and the day before.
 * @throws DomainError forbidden `Forbidden` without any of COFFRE, RECUS, COMPTAGE (issue #17
 *   item 8), and the errors of {@link widgetContext}.
 */
export async function homeSafe(db: Queryable, request: HomeRequest): Promise<HomeSafeAnswer> {
  requireWidgetRight('coffre', request.rights);
  const ctx = await widgetContext(db, request);
  const yesterday = shiftDate(ctx.fiscalDate, -1);
  const has = (right: string) => ctx.rights.includes(right);
  // Read once, awaited by the parts that need it, while their own reads run.
  const selling = has('COFFRE') || has('COMPTAGE') ? sellingTerminals(db, ctx.siteIds, yesterday) : null;
  const [safe, cash, recus] = await Promise.all([
    selling && has('COFFRE') ? safePart(db, ctx, yesterday, selling) : null,
    selling && has('COMPTAGE') ? cashCountPart(db, ctx, yesterday, selling) : null,
    has('RECUS') ? receiptPart(db, ctx) : null,
  ]);
  return {
    data: {
      fiscalDate: ctx.fiscalDate,
      yesterday,
      currency: ctx.currency,
      safe,
      cashCounts: cash,
      receipts: recus,
    },
  };
}
