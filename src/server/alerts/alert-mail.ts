/**
 * The e-mail of one alert finding to one recipient (issue #28 "Alerts"), in the recipient's
 * language: what was seen (site, fiscal date, and the amount and range, or which counts are
 * missing) and a button to the screen that shows it, as HTML in the shared layout
 * (mail/layout.ts) with its text part.
 */
import type { AlertKind } from '../../contract/alerts.ts';
import { type AnomalyMeasure, HISTORY_WEEKS } from '../../contract/anomalies.ts';
import type { Language } from '../../contract/reports.ts';
import { formatDate, formatMoney, formatNumber, formatPercent, message } from '../i18n.ts';
import { renderMailHtml } from '../mail/layout.ts';
import type { MailMessage } from '../mail/transport.ts';
import type { DayOutsideForecast, MissingCounts, NewAnomalies } from './findings.ts';

/** One finding of a check: a site, its fiscal date and what needs a person. */
export type AlertFinding = {
  siteId: number;
  site: string;
  /** The site's currency (ISO 4217), for amounts. */
  currency: string;
  /** Fiscal date `YYYY-MM-DD` the finding is about. */
  fiscalDate: string;
} & (
  | { kind: Extract<AlertKind, 'countMissing'>; missing: MissingCounts }
  | { kind: Extract<AlertKind, 'dayOutsideForecast'>; outside: DayOutsideForecast }
  | { kind: Extract<AlertKind, 'newAnomaly'>; found: NewAnomalies }
);

/** The path of the screen that shows `finding` (after COMPTOIR_PUBLIC_URL). */
export function findingPath(finding: AlertFinding): string {
  if (finding.kind === 'dayOutsideForecast') return '/home';
  if (finding.kind === 'newAnomaly') {
    const { dateDebut, dateFin } = finding.found;
    return `/anomalies?site=${finding.siteId}&dateDebut=${dateDebut}&dateFin=${dateFin}`;
  }
  return finding.missing.terminals.length > 0 ? '/analyses/comptageCaisses/saisie' : '/analyses/coffre';
}

/** A measure's value as /anomalies shows it: money per count, a share, or a rate with one decimal. */
function measureText(language: Language, measure: AnomalyMeasure, value: number, currency: string): string {
  if (measure === 'cashVariance') return formatMoney(language, Math.round(value), currency);
  if (measure === 'discountShare') return formatPercent(language, value / 100);
  return formatNumber(language, value, 1);
}

/** The paragraphs of new anomalies: the period, then per anomaly who and the explaining sentence. */
function anomalyLines(language: Language, finding: AlertFinding & { kind: 'newAnomaly' }): string[] {
  const { found } = finding;
  const lines = [
    message(language, 'alerts.mail.anomaly.intro', {
      site: finding.site,
      count: found.anomalies.length,
      debut: formatDate(found.dateDebut),
      date: formatDate(found.dateFin),
    }),
  ];
  for (const a of found.anomalies) {
    const text = (v: number) => measureText(language, a.measure, v, finding.currency);
    const title = message(language, 'anomalies.itemTitle', {
      name: a.name,
      kind: message(language, `anomalies.kind.${a.kind}`),
      site: finding.site,
      measure: message(language, `anomalies.measure.${a.measure}`),
    });
    const explain = message(language, `anomalies.explain.${a.measure}`, {
      value: text(a.value),
      peerMedian: text(a.peerMedian),
      historyMedian: text(a.historyMedian),
      peers: message(language, `anomalies.peers.${a.kind}.${a.peerScope}`),
      weeks: HISTORY_WEEKS,
    });
    lines.push(title, explain);
  }
  return lines;
}

/** The paragraphs saying what was seen. */
function findingLines(language: Language, finding: AlertFinding): string[] {
  const values = { site: finding.site, date: formatDate(finding.fiscalDate) };
  if (finding.kind === 'newAnomaly') return anomalyLines(language, finding);
  if (finding.kind === 'dayOutsideForecast') {
    const money = (cents: number) => formatMoney(language, cents, finding.currency);
    const o = finding.outside;
    return [
      message(
        language,
        o.actualCents < o.lowCents ? 'alerts.mail.forecast.below' : 'alerts.mail.forecast.above',
        {
          ...values,
          montant: money(o.actualCents),
          prevision: money(o.forecastCents),
          bas: money(o.lowCents),
          haut: money(o.highCents),
        },
      ),
    ];
  }
  const lines: string[] = [];
  if (finding.missing.terminals.length > 0)
    lines.push(
      message(language, 'alerts.mail.count.cash', {
        ...values,
        caisses: finding.missing.terminals.join(', '),
      }),
    );
  if (finding.missing.safe) lines.push(message(language, 'alerts.mail.count.safe', values));
  return lines;
}

/**
 * The mail of `finding` for `to` in `language`, titled with the alert's name `libelle`, linking
 * to `publicUrl` (COMPTOIR_PUBLIC_URL, no trailing slash) + {@link findingPath}.
 */
export async function alertMailMessage(
  to: string,
  language: Language,
  libelle: string,
  finding: AlertFinding,
  publicUrl: string,
): Promise<MailMessage> {
  const subject = message(language, `alerts.mail.subject.${finding.kind}`, {
    libelle,
    site: finding.site,
    date: formatDate(finding.fiscalDate),
  });
  const url = `${publicUrl}${findingPath(finding)}`;
  const label = message(language, 'alerts.mail.open');
  const lines = findingLines(language, finding);
  const footer = message(language, 'alerts.mail.footer', { libelle });
  return {
    to: [to],
    language,
    subject,
    text: [...lines, `${label}\n${url}`, footer].join('\n\n'),
    html: await renderMailHtml({ language, title: subject, blocks: [...lines, { label, url }], footer }),
  };
}
