/**
 * The report previews this device keeps as offline copies (issue #20 item 9): every
 * `bo/getReport` answered as JSON that the service worker kept for the signed-in user, with the
 * request it answered (class, variant, period, sites) and when, so /rapports can list them with
 * no network and open one without asking the same report again.
 *
 * Reads them through lib/outbox/page-outbox.ts, the features' one door into the outbox.
 */
import { type Dataset, DatasetAnswerSchema } from '../../../contract/reports.ts';
import { listOfflineCopies, readOfflineCopy } from '../../lib/outbox/page-outbox.ts';

/** The API path of a report (SPEC.md §7). */
const REPORT_PATH = 'bo/getReport';

/** One kept report preview: what was asked and when the answer came. */
export interface ReportCopy {
  key: string;
  /** bo/getReport `rapportClassName`. */
  className: string;
  /** bo/getReport `typeRapport` (Daily, Cumulative…). */
  variant: string;
  /** Wire dates YYYY-MM-DD, both ends included. */
  dateDebut: string;
  dateFin: string;
  /** The sites asked for (restaurantId). */
  siteIds: number[];
  /** Epoch milliseconds of the answer. */
  storedAt: number;
}

/** The kept previews of `login`, newest first; copies of files (PDF, CSV, XLSX) are not listed. */
export async function listReportCopies(login: string): Promise<ReportCopy[]> {
  const copies = await listOfflineCopies(login, REPORT_PATH);
  return copies
    .filter((c) => c.params.get('format') === 'JSON')
    .map((c) => ({
      key: c.key,
      className: c.params.get('rapportClassName') ?? '',
      variant: c.params.get('typeRapport') ?? '',
      dateDebut: c.params.get('dateDebut') ?? '',
      dateFin: c.params.get('dateFin') ?? '',
      siteIds: [...c.params.getAll('sites[]'), ...c.params.getAll('sites')]
        .map(Number)
        .filter(Number.isInteger),
      storedAt: c.storedAt,
    }));
}

/** The dataset kept as `key`, or null when the copy is gone or does not hold a dataset. */
export async function openReportCopy(key: string): Promise<Dataset | null> {
  try {
    const parsed = DatasetAnswerSchema.safeParse(await readOfflineCopy(key));
    return parsed.success ? parsed.data : null;
  } catch {
    // A body that is not JSON: nothing to show, as for a copy that is gone.
    return null;
  }
}
