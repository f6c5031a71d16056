/**
 * The explorer's choice (measure, two dimensions, comparison) and which options go with the rest
 * of it (contract/bi.ts measureAllowed, the server's own rule): the screen greys out the others.
 */
import {
  BI_COMPARISONS,
  BI_DIMENSIONS,
  BI_MEASURES,
  type BiComparison,
  type BiDimension,
  type BiMeasure,
  measureAllowed,
} from '../../../contract/bi-choices.ts';

/** The explorer's choice; a dimension may be absent (null). */
export interface ExploreChoice {
  measure: BiMeasure;
  dimension1: BiDimension | null;
  dimension2: BiDimension | null;
  comparison: BiComparison;
}

/** The choice the screen opens on: net sales by site against the year before. */
export const DEFAULT_CHOICE: ExploreChoice = {
  measure: 'NET',
  dimension1: 'SITE',
  dimension2: null,
  comparison: 'YEAR',
};

const dims = (...d: (BiDimension | null)[]) => d.filter((x): x is BiDimension => x !== null);

/** Measures that cannot be read by the chosen dimensions. */
export function unavailableMeasures(choice: ExploreChoice): BiMeasure[] {
  return BI_MEASURES.filter((m) => !measureAllowed(m, dims(choice.dimension1, choice.dimension2)));
}

/**
 * Dimensions that cannot take the place of dimension `slot` (1 or 2) with the rest of the choice:
 * no aggregate holds them with the measure and the other dimension, or they are the other one.
 */
export function unavailableDimensions(choice: ExploreChoice, slot: 1 | 2): BiDimension[] {
  const other = slot === 1 ? choice.dimension2 : choice.dimension1;
  return BI_DIMENSIONS.filter((d) => d === other || !measureAllowed(choice.measure, dims(d, other)));
}

/** Whether the server can answer `choice` (the show button is disabled otherwise). */
export function choiceAllowed(choice: ExploreChoice): boolean {
  return (
    measureAllowed(choice.measure, dims(choice.dimension1, choice.dimension2)) &&
    (choice.dimension1 === null || choice.dimension1 !== choice.dimension2)
  );
}

/** The explorer's choice in the address of /bi (`?measure=…&dimension1=…`), as a favourite opens it. */
export interface ChoiceSearch {
  measure?: BiMeasure;
  dimension1?: BiDimension;
  dimension2?: BiDimension;
  comparison?: BiComparison;
}

/** `value` when it is one of `allowed`, else undefined. */
function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((a) => a === value);
}

/**
 * The choice an address asks for, or nothing when it names none or one the explorer cannot
 * answer (an unknown measure, dimension or comparison included). Plain checks, no zod: this runs
 * in the route tree, which loads at start, before the login page (bench/bundle.ts budget).
 */
export function choiceSearch(search: Record<string, unknown>): ChoiceSearch {
  const measure = oneOf(BI_MEASURES, search.measure);
  if (!measure) return {};
  const parsed: ChoiceSearch = { measure };
  for (const key of ['dimension1', 'dimension2'] as const) {
    if (search[key] === undefined) continue;
    const dimension = oneOf(BI_DIMENSIONS, search[key]);
    if (!dimension) return {};
    parsed[key] = dimension;
  }
  if (search.comparison !== undefined) {
    const comparison = oneOf(BI_COMPARISONS, search.comparison);
    if (!comparison) return {};
    parsed.comparison = comparison;
  }
  return choiceAllowed(choiceOf(parsed)) ? parsed : {};
}

/** The choice of an address (its absent parts as in {@link DEFAULT_CHOICE}, no dimension when a measure is given). */
export function choiceOf(search: ChoiceSearch): ExploreChoice {
  if (!search.measure) return DEFAULT_CHOICE;
  return {
    measure: search.measure,
    dimension1: search.dimension1 ?? null,
    dimension2: search.dimension2 ?? null,
    comparison: search.comparison ?? DEFAULT_CHOICE.comparison,
  };
}
