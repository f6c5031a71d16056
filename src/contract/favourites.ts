/**
 * Favourite reports (SPEC.md §3 "Favourite report: the report request shape plus id, lSites,
 * typeRapport"), written once here and used by the server routes (`bo/favoris…`) and the client.
 *
 * SPEC.md §7 lists no favourite calls, so they follow the house style (DESIGN.md §4):
 * - `GET bo/favoris?id` — the signed-in user's favourites (`{ favoris: Favourite[] }`);
 * - `POST bo/favoris/save?id` — JSON body {@link FavouriteSaveBodySchema}: creates the favourite
 *   when it has no `id`, replaces it otherwise (renaming is a save with a new `libelle`);
 * - `GET bo/favoris/remove?id&favoriId` — deletes one.
 *
 * Wire names are those of SPEC.md §3's report request. The period is kept as the PERIOD CODE when
 * the user chose one (`periode: 'W-1'`), so a favourite "last week" stays relative to the day it
 * is opened; only a custom period stores dates (`dateDebut`/`dateFin`, YYYY-MM-DD).
 *
 * The sort, grouping and filter chosen on /rapports travel under bo/getReport's own wire names
 * (SPEC.md §7: `tri`, `regroupement`, `isFilters`, `filtre`, `condition`), each optional with a
 * "not chosen" default, so favourites saved before they existed still read. Filter values are
 * kept as saved even when a later period has none of them: the report then finds nothing for
 * them, rather than silently widening to every value.
 *
 * A favourite may also hold a view of the BI explorer (issue #19 "save the view as a favourite"):
 * `typeRapport.className` {@link BI_FAVOURITE_CLASS} and a `bi` object (measure, dimensions,
 * comparison, checked by contract/bi.ts measureAllowed); its sites and period are the favourite's
 * own `lSites`/`groupement` and `periode` or dates. Every other favourite has `bi: null`.
 */
import { z } from 'zod';
import { BI_COMPARISONS, BI_DIMENSIONS, BI_MEASURES, measureAllowed } from './bi.ts';
import { hhmmToMinutes, parseWireDate } from './dates.ts';
import { PeriodCodeSchema } from './periods.ts';
import { OPERATIONS, REPORT_FORMATS, REPORT_VARIANTS } from './reports.ts';
import { INT4_MAX } from './integers.ts';

/** Longest favourite name, in characters (it must fit a list row on a phone). */
export const FAVOURITE_NAME_MAX = 80;

const WireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');
const HourText = z.string().refine((h) => hhmmToMinutes(h) !== null, 'an HH:mm time');
const Id = z.number().int().positive().max(INT4_MAX);
/** A value of bo/getResultsChoices (a dimension such as FAMILLE, or a column key). */
const Choice = z.string().trim().min(1).max(200);

/** `typeRapport.className` of a favourite that holds a view of the BI explorer (/bi). */
export const BI_FAVOURITE_CLASS = 'BI';

/**
 * The right a favourite is used with: a BI view needs BI (it opens /bi), any other favourite
 * RAPPORTS (it runs a report). The favourites routes take either right (contract/rights.ts);
 * each user reads and saves only the favourites of the rights they hold.
 */
export function favouriteRight(favourite: { typeRapport: { className: string } }): 'BI' | 'RAPPORTS' {
  return favourite.typeRapport.className === BI_FAVOURITE_CLASS ? 'BI' : 'RAPPORTS';
}

/** A view of the BI explorer as a favourite keeps it: one measure by up to two dimensions, a comparison. */
export const BiFavouriteViewSchema = z.object({
  measure: z.enum(BI_MEASURES),
  dimension1: z.enum(BI_DIMENSIONS).nullable().default(null),
  dimension2: z.enum(BI_DIMENSIONS).nullable().default(null),
  comparison: z.enum(BI_COMPARISONS).default('YEAR'),
});
export type BiFavouriteView = z.output<typeof BiFavouriteViewSchema>;

/** The fields of a favourite, without its id. Defaults are those of SPEC.md §9. */
const favouriteFields = {
  /** Name the user gave the favourite (trimmed, 1–80 characters). */
  libelle: z.string().trim().min(1).max(FAVOURITE_NAME_MAX),
  /** Report class and its title as shown when saved (SPEC.md §3 typeRapport). */
  typeRapport: z.object({
    className: z.string().min(1).max(200),
    localisedTitle: z.string().max(300).default(''),
  }),
  /** Variant of the class (Daily, Graph, Cumulative): the `typeRapport` parameter of bo/getReport. */
  type: z.enum(REPORT_VARIANTS).default('Daily'),
  /** Chosen sites (restaurantId); empty = every site of the user's scope (SPEC.md §5). */
  lSites: z.array(Id).max(5000).default([]),
  /** Chosen group of sites (regroupement id), or null. */
  groupement: Id.nullable().default(null),
  /** Chosen terminals; empty = every terminal. */
  lCaisses: z
    .array(z.object({ restaurantId: Id, terminalId: z.number().int().min(0).max(INT4_MAX) }))
    .max(5000)
    .default([]),
  /** Chosen sellers (their code within a site); empty = every seller. */
  vendeur: z
    .array(z.object({ restaurantId: Id, code: z.string().min(1).max(200) }))
    .max(5000)
    .default([]),
  operation: z.enum(OPERATIONS).default('VENTE'),
  /** Period code of SPEC.md §9, or null for the custom dates below. */
  periode: PeriodCodeSchema.nullable().default('D'),
  /** Custom period, inclusive wire dates; null when `periode` is a code. */
  dateDebut: WireDate.nullable().default(null),
  dateFin: WireDate.nullable().default(null),
  trancheHoraire: z.boolean().default(false),
  /** HH:mm (SPEC.md §9 default 12:00 to 23:00). */
  heureDebut: HourText.default('12:00'),
  heureFin: HourText.default('23:00'),
  format: z.enum(REPORT_FORMATS).default('PDF'),
  /**
   * Sort column of the dataset (bo/getResultsChoices `tris`), as bo/getReport's `tri`: `key`
   * (ascending) or `key:desc`; null = the report's own order.
   */
  tri: z
    .string()
    .trim()
    .max(200)
    .regex(/^[^:]+(:(asc|desc))?$/, 'a column key, optionally followed by :asc or :desc')
    .nullable()
    .default(null),
  /** What rows are grouped by (bo/getResultsChoices `regroupements`); null = no grouping. */
  regroupement: Choice.nullable().default(null),
  /** The filter is on (bo/getReport `isFilters`); it then needs `filtre` and at least one `condition`. */
  isFilters: z.boolean().default(false),
  /** Dimension or column filtered on (bo/getResultsChoices `filtres`, e.g. FAMILLE, TVA, PAIEMENT); null = none. */
  filtre: Choice.nullable().default(null),
  /** Values of `filtre` to keep, as bo/getGroupements lists them (a VAT rate as a fraction: "0.055"). */
  condition: z.array(z.string().max(500)).max(5000).default([]),
  /** The BI explorer's view when `typeRapport.className` is {@link BI_FAVOURITE_CLASS}; null otherwise. */
  bi: BiFavouriteViewSchema.nullable().default(null),
};

type CheckedFields = {
  typeRapport: { className: string };
  bi: BiFavouriteView | null;
  periode: string | null;
  dateDebut: string | null;
  dateFin: string | null;
  isFilters: boolean;
  filtre: string | null;
  condition: string[];
};

/**
 * A BI favourite holds a view the explorer can answer (two different dimensions, an aggregate
 * holding the measure by them: contract/bi.ts measureAllowed); any other favourite holds none.
 */
function checkBiView(f: CheckedFields, ctx: z.RefinementCtx): void {
  const isBi = f.typeRapport.className === BI_FAVOURITE_CLASS;
  if (!isBi || f.bi === null) {
    if (isBi || f.bi !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['bi'],
        message: isBi
          ? 'a BI favourite needs its view'
          : `only a ${BI_FAVOURITE_CLASS} favourite holds a view`,
      });
    }
    return;
  }
  const { measure, dimension1, dimension2 } = f.bi;
  if (dimension1 !== null && dimension1 === dimension2) {
    ctx.addIssue({ code: 'custom', path: ['bi', 'dimension2'], message: 'the same dimension twice' });
  }
  const dimensions = [dimension1, dimension2].filter((d) => d !== null);
  if (!measureAllowed(measure, dimensions)) {
    ctx.addIssue({
      code: 'custom',
      path: ['bi', 'measure'],
      message: `no aggregate holds ${measure} by ${dimensions.join(' and ')}`,
    });
  }
}

/**
 * A code XOR a custom range whose start is not after its end (SPEC.md §5); a filter that is on
 * names what it filters and keeps at least one value (bo/getReport refuses it otherwise); a BI
 * view only on a BI favourite, and one the explorer answers ({@link checkBiView}).
 */
function checkFavourite(f: CheckedFields, ctx: z.RefinementCtx): void {
  checkBiView(f, ctx);
  if (f.isFilters && (f.filtre === null || f.condition.length === 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['condition'],
      message: 'isFilters needs a filtre and a condition',
    });
  }
  if (f.periode !== null) {
    if (f.dateDebut !== null || f.dateFin !== null) {
      ctx.addIssue({ code: 'custom', path: ['dateDebut'], message: 'give a period code or dates, not both' });
    }
    return;
  }
  if (f.dateDebut === null || f.dateFin === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['dateDebut'],
      message: 'a custom period needs dateDebut and dateFin',
    });
  } else if (f.dateDebut > f.dateFin) {
    ctx.addIssue({ code: 'custom', path: ['dateFin'], message: 'dateFin is before dateDebut' });
  }
}

/** Body of POST bo/favoris/save: a favourite; without `id` it is created, with `id` replaced. */
export const FavouriteSaveBodySchema = z
  .object({ id: Id.optional(), ...favouriteFields })
  .superRefine(checkFavourite);
/** What the client sends (defaults may be left out). */
export type FavouriteSaveBody = z.input<typeof FavouriteSaveBodySchema>;

/** A stored favourite, as the server answers it. */
export const FavouriteSchema = z.object({ id: Id, ...favouriteFields }).superRefine(checkFavourite);
export type Favourite = z.infer<typeof FavouriteSchema>;

/** Answer of GET bo/favoris: the user's favourites, by name. */
export const FavouritesAnswerSchema = z.object({ favoris: z.array(FavouriteSchema) });
export type FavouritesAnswer = z.infer<typeof FavouritesAnswerSchema>;
