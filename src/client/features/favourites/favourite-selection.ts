/**
 * Between a favourite (src/contract/favourites.ts, wire names of SPEC.md §3) and the selection of
 * /rapports (selection-state.ts). Pure, so the tests pin the rules:
 *
 * - a period code stays a code both ways, so a favourite "last week" means last week on the day
 *   it is opened; custom dates travel as wire dates and show as DD/MM/YYYY;
 * - applying drops sites the user can no longer see (SPEC.md §6), with their terminals and
 *   sellers; a favourite whose chosen sites are all gone is refused rather than widened to
 *   "every site";
 * - a group that no longer exists is dropped; a JSON format (not offered for download) becomes PDF;
 * - the sort, grouping and filter of /rapports travel as bo/getReport's `tri`, `regroupement`,
 *   `isFilters`, `filtre` and `condition`, and only for the report they were chosen for. Filter
 *   values are restored as saved, even those the period turns out not to have: a store manager
 *   who kept "Desserts" wants a report on desserts (empty if none were sold), never one that has
 *   silently become "every family". /rapports shows such values as absent from the period.
 */
import { wireToDisplay } from '../../../contract/dates.ts';
import {
  BI_FAVOURITE_CLASS,
  type BiFavouriteView,
  type Favourite,
  type FavouriteSaveBody,
} from '../../../contract/favourites.ts';
import type { ReportVariant } from '../../../contract/reports.ts';
import { resolvePeriodChoice, validateHours } from '../../selection/period.ts';
import {
  DOWNLOAD_FORMATS,
  type DownloadFormat,
  type ReportShaping,
  type SelectionState,
  sellerKey,
  terminalKey,
} from '../../selection/selection-state.ts';

/** The part of the selection a favourite sets (all of it). */
export type FavouriteSelection = Pick<
  SelectionState,
  | 'restaurantIds'
  | 'groupId'
  | 'terminals'
  | 'sellers'
  | 'period'
  | 'trancheHoraire'
  | 'heureDebut'
  | 'heureFin'
  | 'report'
  | 'shaping'
>;

export type ApplyOutcome =
  | {
      ok: true;
      selection: FavouriteSelection;
      /** How many of the favourite's sites were dropped as no longer visible to the user. */
      droppedSites: number;
    }
  /** `favouriteSitesOutOfScope`: none of the favourite's chosen sites is visible any more. */
  | { ok: false; code: 'favouriteSitesOutOfScope' };

function isDownloadFormat(value: string): value is DownloadFormat {
  return (DOWNLOAD_FORMATS as readonly string[]).includes(value);
}

/** The /rapports sort, grouping and filter a favourite stands for (`tri` is `key` or `key:desc`). */
function shapingFromFavourite(favourite: Favourite): ReportShaping {
  const [sortKey, direction] = favourite.tri?.split(':') ?? [];
  return {
    className: favourite.typeRapport.className,
    sortKey: sortKey || null,
    descending: direction === 'desc',
    groupBy: favourite.regroupement,
    filtre: favourite.filtre,
    // A filter saved off (no value ticked) keeps its dimension chosen, with nothing to keep.
    filterValues: favourite.isFilters ? [...new Set(favourite.condition)] : [],
  };
}

/** bo/getReport's shaping parameters for `shaping`, when it was chosen for `className` (else none). */
function shapingToFavourite(
  shaping: Readonly<ReportShaping>,
  className: string,
): Pick<FavouriteSaveBody, 'tri' | 'regroupement' | 'isFilters' | 'filtre' | 'condition'> {
  if (shaping.className !== className) {
    return { tri: null, regroupement: null, isFilters: false, filtre: null, condition: [] };
  }
  const condition = shaping.filtre ? [...new Set(shaping.filterValues)] : [];
  return {
    tri: shaping.sortKey ? `${shaping.sortKey}${shaping.descending ? ':desc' : ''}` : null,
    regroupement: shaping.groupBy,
    isFilters: condition.length > 0,
    filtre: shaping.filtre,
    condition,
  };
}

/**
 * The selection a favourite stands for, for a user who sees `visibleSiteIds` and groups `groupIds`.
 */
export function selectionFromFavourite(
  favourite: Favourite,
  visibleSiteIds: readonly number[],
  groupIds: readonly number[],
): ApplyOutcome {
  const visible = new Set(visibleSiteIds);
  const restaurantIds = favourite.lSites.filter((id) => visible.has(id));
  if (favourite.lSites.length > 0 && restaurantIds.length === 0) {
    return { ok: false, code: 'favouriteSitesOutOfScope' };
  }
  const kept = restaurantIds.length > 0 ? new Set(restaurantIds) : visible;
  return {
    ok: true,
    droppedSites: favourite.lSites.length - restaurantIds.length,
    selection: {
      restaurantIds,
      groupId:
        favourite.groupement !== null && groupIds.includes(favourite.groupement)
          ? favourite.groupement
          : null,
      terminals: favourite.lCaisses
        .filter((c) => kept.has(c.restaurantId))
        .map((c) => terminalKey(c.restaurantId, c.terminalId)),
      sellers: favourite.vendeur
        .filter((v) => kept.has(v.restaurantId))
        .map((v) => sellerKey(v.restaurantId, v.code)),
      period:
        favourite.periode !== null
          ? { kind: 'code', code: favourite.periode }
          : {
              kind: 'custom',
              debut: wireToDisplay(favourite.dateDebut ?? ''),
              fin: wireToDisplay(favourite.dateFin ?? ''),
            },
      trancheHoraire: favourite.trancheHoraire,
      heureDebut: favourite.heureDebut,
      heureFin: favourite.heureFin,
      report: {
        className: favourite.typeRapport.className,
        typeRapport: favourite.type,
        format: isDownloadFormat(favourite.format) ? favourite.format : 'PDF',
      },
      shaping: shapingFromFavourite(favourite),
    },
  };
}

/** The report chosen on /rapports when the favourite is saved (the page resolves fallbacks). */
export interface ChosenReport {
  className: string;
  /** Title in the current language, kept so the list reads well before the report list loads. */
  localisedTitle: string;
  typeRapport: ReportVariant;
  format: DownloadFormat;
}

export type SaveOutcome =
  | { ok: true; body: FavouriteSaveBody }
  /** Message ids of /rapports: the period or the hours must be fixed first. */
  | { ok: false; messageId: 'reports.fixPeriod' | 'reports.fixHours' };

function afterFirstColon(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

/** The period fields of a favourite: a code as its code, custom dates as wire dates; null when they do not read. */
function favouritePeriod(
  period: SelectionState['period'],
): Pick<Favourite, 'periode' | 'dateDebut' | 'dateFin'> | null {
  if (period.kind === 'code') return { periode: period.code, dateDebut: null, dateFin: null };
  const resolved = resolvePeriodChoice(period);
  return resolved.ok ? { periode: null, ...resolved.range } : null;
}

/**
 * The favourite (without id) for the current selection and report, named `libelle`. Sites are
 * saved as chosen (none = every site of the user, SPEC.md §5), a period code as its code; the
 * sort, grouping and filter only when they were chosen for `report`'s class.
 */
export function favouriteFromSelection(
  sel: Readonly<FavouriteSelection> & { readonly period: SelectionState['period'] },
  report: ChosenReport,
  libelle: string,
): SaveOutcome {
  const dates = favouritePeriod(sel.period);
  if (dates === null) return { ok: false, messageId: 'reports.fixPeriod' };
  const hoursValid = Object.keys(validateHours(sel.heureDebut, sel.heureFin)).length === 0;
  if (sel.trancheHoraire && !hoursValid) return { ok: false, messageId: 'reports.fixHours' };
  return {
    ok: true,
    body: {
      libelle: libelle.trim(),
      typeRapport: { className: report.className, localisedTitle: report.localisedTitle },
      type: report.typeRapport,
      lSites: [...sel.restaurantIds],
      groupement: sel.groupId,
      lCaisses: sel.terminals.map((key) => ({
        restaurantId: Number(key.split(':')[0]),
        terminalId: Number(afterFirstColon(key)),
      })),
      vendeur: sel.sellers.map((key) => ({
        restaurantId: Number(key.split(':')[0]),
        code: afterFirstColon(key),
      })),
      operation: 'VENTE',
      ...dates,
      trancheHoraire: sel.trancheHoraire,
      // Hours typed wrong while the range is off are not worth refusing the favourite for.
      heureDebut: hoursValid ? sel.heureDebut : '12:00',
      heureFin: hoursValid ? sel.heureFin : '23:00',
      format: report.format,
      ...shapingToFavourite(sel.shaping, report.className),
    },
  };
}

/** The part of the selection a BI favourite sets: the sites, the group and the period (the rest is /rapports'). */
export type BiFavouriteSelection = Pick<SelectionState, 'restaurantIds' | 'groupId' | 'period'>;

export type BiSaveOutcome =
  | { ok: true; body: FavouriteSaveBody }
  | { ok: false; messageId: 'reports.fixPeriod' };

/**
 * The BI favourite (without id) for the explorer's `view` over the chosen sites and period of
 * `sel`, named `libelle`; `title` is the explorer's title in the current language.
 */
export function biFavouriteFromSelection(
  sel: Readonly<BiFavouriteSelection>,
  view: BiFavouriteView,
  libelle: string,
  title: string,
): BiSaveOutcome {
  const dates = favouritePeriod(sel.period);
  if (dates === null) return { ok: false, messageId: 'reports.fixPeriod' };
  return {
    ok: true,
    body: {
      libelle: libelle.trim(),
      typeRapport: { className: BI_FAVOURITE_CLASS, localisedTitle: title },
      lSites: [...sel.restaurantIds],
      groupement: sel.groupId,
      ...dates,
      bi: { ...view },
    },
  };
}

export type BiApplyOutcome =
  | { ok: true; selection: BiFavouriteSelection; view: BiFavouriteView; droppedSites: number }
  | { ok: false; code: 'favouriteSitesOutOfScope' };

/**
 * The explorer's view and the sites, group and period a BI favourite stands for, for a user who
 * sees `visibleSiteIds` and groups `groupIds` (the same rules as {@link selectionFromFavourite}).
 */
export function biSelectionFromFavourite(
  favourite: Favourite & { bi: BiFavouriteView },
  visibleSiteIds: readonly number[],
  groupIds: readonly number[],
): BiApplyOutcome {
  const outcome = selectionFromFavourite(favourite, visibleSiteIds, groupIds);
  if (!outcome.ok) return outcome;
  const { restaurantIds, groupId, period } = outcome.selection;
  return {
    ok: true,
    selection: { restaurantIds, groupId, period },
    view: favourite.bi,
    droppedSites: outcome.droppedSites,
  };
}
