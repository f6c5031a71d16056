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
 */
import { z } from 'zod';
import { hhmmToMinutes, parseWireDate } from './dates.ts';
import { PeriodCodeSchema } from './periods.ts';
import { OPERATIONS, REPORT_FORMATS, REPORT_VARIANTS } from './reports.ts';

/** Longest favourite name, in characters (it must fit a list row on a phone). */
export const FAVOURITE_NAME_MAX = 80;

const WireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');
const HourText = z.string().refine((h) => hhmmToMinutes(h) !== null, 'an HH:mm time');
const Id = z.number().int().positive();

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
    .array(z.object({ restaurantId: Id, terminalId: z.number().int() }))
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
};

type PeriodFields = { periode: string | null; dateDebut: string | null; dateFin: string | null };

/** A code XOR a custom range whose start is not after its end (SPEC.md §5). */
function checkPeriod(f: PeriodFields, ctx: z.RefinementCtx): void {
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
  .superRefine(checkPeriod);
/** What the client sends (defaults may be left out). */
export type FavouriteSaveBody = z.input<typeof FavouriteSaveBodySchema>;

/** A stored favourite, as the server answers it. */
export const FavouriteSchema = z.object({ id: Id, ...favouriteFields }).superRefine(checkPeriod);
export type Favourite = z.infer<typeof FavouriteSchema>;

/** Answer of GET bo/favoris: the user's favourites, by name. */
export const FavouritesAnswerSchema = z.object({ favoris: z.array(FavouriteSchema) });
export type FavouritesAnswer = z.infer<typeof FavouritesAnswerSchema>;
