/**
 * The site form's own checks (issue #18 /config/sites): a label and a company (SPEC.md §5), an
 * ISO 4217 currency this device knows, an IANA time zone from `Intl.supportedValuesOf`, the
 * business-day start as 24-hour `HH:mm` (administration.ts ClockTimeSchema), terminal and seller
 * names not empty. The server checks the same and answers `InvalidField` with the field's name.
 */
import { ClockTimeSchema } from '../../../contract/administration.ts';
import type { Seller, Terminal } from '../../../contract/api.ts';
import { HIDDEN_SITE_LABEL } from '../../selection/site-scope.ts';
import { TEXT_MAX } from './company-rules.ts';

/** The site form as typed. */
export interface SiteDraft {
  libelle: string;
  societeId: number | null;
  codeImplant: string;
  currency: string;
  timeZone: string;
  dayStart: string;
  caisses: Terminal[];
  vendeurs: Seller[];
}

export type SiteField = 'libelle' | 'societeId' | 'codeImplant' | 'currency' | 'timeZone' | 'dayStart';

/** Why a field is refused; message id `sitesAdmin.site.error.<code>`. */
export type SiteProblem = 'required' | 'currency' | 'timeZone' | 'dayStart' | 'tooLong';

/** Problems of a draft: per field, and the terminals (by id) and sellers (by code) left without a name. */
export interface SiteProblems {
  fields: Partial<Record<SiteField, SiteProblem>>;
  emptyTerminals: number[];
  emptySellers: string[];
}

/** IANA time zones this device knows, sorted (the time zone picker's choices). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

/** ISO 4217 currencies this device knows. */
function currencies(): readonly string[] {
  return Intl.supportedValuesOf('currency');
}

/** True when a site with this label is hidden everywhere but here (SPEC.md §3 'NON REMPLI'). */
export function isHiddenLabel(libelle: string): boolean {
  return libelle.trim().toUpperCase() === HIDDEN_SITE_LABEL;
}

/** Problems of `draft` (none: every list empty). */
export function siteProblems(draft: SiteDraft): SiteProblems {
  const fields: Partial<Record<SiteField, SiteProblem>> = {};
  if (draft.libelle.trim() === '') fields.libelle = 'required';
  else if (draft.libelle.trim().length > TEXT_MAX) fields.libelle = 'tooLong';
  if (draft.societeId === null) fields.societeId = 'required';
  if (draft.codeImplant.trim().length > TEXT_MAX) fields.codeImplant = 'tooLong';
  const currency = draft.currency.trim().toUpperCase();
  if (currency === '') fields.currency = 'required';
  else if (!currencies().includes(currency)) fields.currency = 'currency';
  if (draft.timeZone === '') fields.timeZone = 'required';
  else if (!timeZones().includes(draft.timeZone)) fields.timeZone = 'timeZone';
  if (draft.dayStart.trim() === '') fields.dayStart = 'required';
  else if (!ClockTimeSchema.safeParse(draft.dayStart.trim()).success) fields.dayStart = 'dayStart';
  return {
    fields,
    emptyTerminals: draft.caisses.filter((c) => c.libelle.trim() === '').map((c) => c.id),
    emptySellers: draft.vendeurs.filter((v) => v.nom.trim() === '').map((v) => v.code),
  };
}

/** True when `problems` holds nothing. */
export function siteIsValid(problems: SiteProblems): boolean {
  return (
    Object.keys(problems.fields).length === 0 &&
    problems.emptyTerminals.length === 0 &&
    problems.emptySellers.length === 0
  );
}

/** The body of newSite / saveSite for a valid draft (`societeId` checked by {@link siteProblems}). */
export function siteInput(draft: SiteDraft) {
  return {
    libelle: draft.libelle.trim(),
    societeId: draft.societeId ?? 0,
    codeImplant: draft.codeImplant.trim(),
    currency: draft.currency.trim().toUpperCase(),
    timeZone: draft.timeZone,
    dayStart: draft.dayStart.trim(),
    caisses: draft.caisses.map((c) => ({ id: c.id, libelle: c.libelle.trim() })),
    vendeurs: draft.vendeurs.map((v) => ({ code: v.code, nom: v.nom.trim() })),
  };
}
