/**
 * The anomalies planted in the demo chain (issue #19 "Anomalies": "the demo chain holds a few
 * planted cases, and a test shows they are found and ordinary sellers are not"). Over the last
 * {@link PLANTED_WEEKS} weeks up to the demo's `now`, one seller cancels about 4× as often as the
 * peers of the site, one terminal voids (corrects) many lines, one seller gives many discounts and
 * one terminal's cash counts are repeatedly short; before that window they behaved like everyone
 * else, so they stand out against their own history too.
 *
 * Everybody else keeps the ordinary rates of {@link BASE_RATES}: the planted terminal's
 * corrections are taken from the site's other terminals (the site's, and so every seller's,
 * correction rate stays ordinary), and a planted seller's extra cancellations or discounts spread
 * over every terminal of the site.
 */

/** How many weeks, up to the demo's today, the planted behaviours last. */
export const PLANTED_WEEKS = 8;

/** A planted anomaly: who (a seller or a terminal of a demo site) does what too often. */
export interface PlantedAnomaly {
  /** The site's index in catalogue.ts SITES (0 = Le Comptoir Lyon Bellecour; the database id is the site whose `code_implant` is that site's `codeImplant`). */
  siteId: number;
  kind: 'seller' | 'terminal';
  /** Seller code (`V03`) or terminal number as text (`2`). */
  key: string;
  measure: 'cancellations' | 'corrections' | 'discounts' | 'cashVariance';
}

/**
 * The planted cases: seller V03 of Lyon Bellecour cancels ~4× as often as the site's other
 * sellers; terminal 2 of Grenoble Grenette voids ~5× the ordinary share of lines; seller V04 of
 * Annecy gives a discount on ~5× as many tickets; terminal 2 of Nantes Graslin is short of cash at
 * most counts (8 to 25 €).
 */
export const PLANTED_ANOMALIES: ReadonlyArray<PlantedAnomaly> = [
  { siteId: 0, kind: 'seller', key: 'V03', measure: 'cancellations' },
  { siteId: 2, kind: 'terminal', key: '2', measure: 'corrections' },
  { siteId: 1, kind: 'seller', key: 'V04', measure: 'discounts' },
  { siteId: 3, kind: 'terminal', key: '2', measure: 'cashVariance' },
];

/** Ordinary chances per ticket (a SALE ticket of a customer): cancelled, one voided line, a discount. */
export const BASE_RATES = {
  cancellation: 0.005,
  correction: { brasserie: 0.03, bakery: 0.015 },
  discount: 0.02,
} as const;

/** Chances of the planted seller or terminal, per ticket. */
const PLANTED_RATES = { cancellation: 0.021, correction: 0.15, discount: 0.1 } as const;

/** The chances of one site's tickets on one day, by seller or terminal. */
export interface DayRates {
  /** Chance that a ticket of `seller` is cancelled a few minutes later. */
  cancellation(seller: string): number;
  /** Chance that a ticket rung up on `terminal` holds a voided line. */
  correction(terminal: number): number;
  /** Chance that a ticket of `seller` carries a discount line. */
  discount(seller: string): number;
  /** The terminal whose cash counts come out short on this day, or null. */
  shortTerminal: number | null;
}

function plantedKey(siteIndex: number, measure: PlantedAnomaly['measure']): string | null {
  return PLANTED_ANOMALIES.find((a) => a.siteId === siteIndex && a.measure === measure)?.key ?? null;
}

/**
 * The rates of site `siteIndex` (catalogue order) on a day, with `terminals` terminals where a
 * ticket goes to terminal 1 half of the time and to any terminal otherwise (generate.ts), for a
 * brasserie or a bakery; `planted` when the day lies in the last {@link PLANTED_WEEKS} weeks.
 */
export function dayRates(
  siteIndex: number,
  kind: 'brasserie' | 'bakery',
  terminals: number,
  planted: boolean,
): DayRates {
  const correctionBase = BASE_RATES.correction[kind];
  const seller = (measure: 'cancellations' | 'discounts', base: number, high: number) => {
    const key = planted ? plantedKey(siteIndex, measure) : null;
    return (code: string) => (code === key ? high : base);
  };
  const voiding = planted ? plantedKey(siteIndex, 'corrections') : null;
  const voidingTerminal = voiding === null ? null : Number(voiding);
  // The planted terminal's share of the site's tickets; the other terminals void less so that
  // the site's own rate (and every seller's) stays the ordinary one.
  const share = voidingTerminal === 1 ? 0.5 + 0.5 / terminals : 0.5 / terminals;
  const others = Math.max(0.002, (correctionBase - share * PLANTED_RATES.correction) / (1 - share));
  const short = planted ? plantedKey(siteIndex, 'cashVariance') : null;
  return {
    cancellation: seller('cancellations', BASE_RATES.cancellation, PLANTED_RATES.cancellation),
    discount: seller('discounts', BASE_RATES.discount, PLANTED_RATES.discount),
    correction: (terminal) =>
      voidingTerminal === null
        ? correctionBase
        : terminal === voidingTerminal
          ? PLANTED_RATES.correction
          : others,
    shortTerminal: short === null ? null : Number(short),
  };
}
