/**
 * Which GETs of the API (SPEC.md §7) are plain reads whose answers the service worker may keep as
 * offline copies (DESIGN.md §4 and §7). An allow-list: a GET not named here — among them the GETs
 * that change data (bo/home/envoieMail, bo/updateRule, the administration's remove*…) — is never
 * kept nor answered from a copy, and the GETs declared writes (contract/rights.ts WRITE_GETS) are
 * refused first whatever the rules below say. Paths are relative to the API base, without the
 * leading slash.
 */
import { isWriteGet } from './rights.ts';

/** Read-only paths (relative to the API base) whose answers are kept. */
export const READ_ONLY_PATHS = new Set([
  'version',
  'distribution',
  'bo/rapport/metrics',
  'bo/getSites',
  'bo/getCaisses',
  'bo/getVendeurs',
  'bo/getEnseignes',
  'bo/getSirets',
  'bo/infra/getRegroupements',
  'bo/getListRules',
  'bo/comptage/expected',
  'bo/comptage/list',
  'bo/documentsManager/readRecusManager',
  'fluxfin/declare_et_en_attente_de_signatures',
  'bo/favoris',
  'bo/tickets/search',
  'bo/tickets/detail',
  'bo/getRepartition',
  'bo/getResultsChoices',
  'bo/getGroupements',
  'exports/status',
  'exports/list',
  // Issue #19: the events calendar, the forecast and the KPI/BI area read offline from their last copy.
  'withCredentials/collab/configurationEvenements',
  'withCredentials/collab/previsions',
  'bo/bi/totalKPI',
  'bo/bi/tracker',
  'bo/bi/anomalies',
]);

/**
 * True when the answer to GET `path?params` may be kept and served offline. `path` is relative
 * to the API base, without the leading slash.
 */
export function isCacheableRead(path: string, params: URLSearchParams): boolean {
  // Whatever the rules below say, a GET declared a write (contract/rights.ts) is never kept.
  if (isWriteGet(`GET ${path}`)) return false;
  // Home widgets; the mails sent from under bo/home/ are declared writes, refused above.
  if (path.startsWith('bo/home/')) return !path.slice(8).includes('/');
  // The on-screen report (JSON dataset); PDF, CSV and XLSX downloads are not kept.
  if (path === 'bo/getReport' || path === 'bo/getReportSite') return params.get('format') === 'JSON';
  // The day's safe counts and a period's list; not the PDF receipt.
  if (path === 'coffre') return !params.has('ACTION') || params.get('ACTION') === 'getComptages';
  // The BI explorer's table (JSON); its CSV and XLSX exports are downloads, not kept.
  if (path === 'bo/bi/explore') return !params.has('format') || params.get('format') === 'JSON';
  return READ_ONLY_PATHS.has(path);
}

/** Reads computed over a long period (a report's dataset), which may take longer to answer than a screen's data. */
export function isSlowRead(path: string): boolean {
  return path === 'bo/getReport';
}
