/**
 * /analyses/listExports (SPEC.md §2 "Exports list", issue #4 point 6): the state of a fiscal date
 * per site (GET exports/status: tickets received, last load, reports covering it, and every
 * report of that day as one ZIP), then the reports generated so far (GET exports/list) with a
 * button to download each again. On a phone the sites and the reports are cards; from a tablet
 * up the reports are a table (exports.css turns the same table into cards below 700 px).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { format as formatInstantText } from 'date-fns/format';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate, wireToDisplay } from '../../../../contract/dates.ts';
import type {
  Edition,
  EditionsAnswer,
  ExportStatusAnswer,
  ExportStatusSite,
} from '../../../../contract/exports.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { saveFile } from '../../../lib/save-file.ts';
import {
  downloadDayArchive,
  downloadEdition,
  downloadFormat,
  downloadLastReport,
  editionPeriod,
  editionSites,
  exportQueries,
  formatBytes,
} from '../export-queries.ts';
import './exports.css';

/** An ISO instant shown in local time as `DD/MM/YYYY HH:mm` (SPEC.md §9 date display). */
export function formatInstant(iso: string): string {
  return formatInstantText(new Date(iso), 'dd/MM/yyyy HH:mm');
}

/** The /analyses/listExports screen; the fiscal date starts at today, the list at its first page. */
export function ExportsPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const [dateFiscale, setDateFiscale] = useState<string | null>(() => toWireDate(new Date()));
  const [pages, setPages] = useState(1);
  const [mine, setMine] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const userId = user?.id ?? 0;
  const status = useQuery({
    ...exportQueries.status(userId, dateFiscale ?? ''),
    enabled: !!user && !!dateFiscale,
  });
  const list = useQuery({ ...exportQueries.list(userId, language, pages, mine), enabled: !!user });
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);

  async function fetchFile(
    key: string,
    run: (onProgress: (f: number | null) => void) => Promise<{ blob: Blob; filename: string }>,
  ) {
    setBusy(key);
    setProgress(null);
    try {
      const { blob, filename } = await run(setProgress);
      saveFile(blob, filename);
      notify.success('exportOk');
      void list.refetch();
      void status.refetch();
    } catch (e) {
      notifyFailure(e);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="ex-page">
      <h1 className="ex-title">{t('exports.title')}</h1>

      <StatusCard
        dateFiscale={dateFiscale}
        onDateFiscale={setDateFiscale}
        status={status}
        language={language}
        t={t}
        busy={busy !== null}
        onArchive={(site, day) =>
          fetchFile(`zip-${site.restaurantId}`, (p) =>
            downloadDayArchive(userId, site.restaurantId, day, language, p),
          )
        }
      />

      {busy !== null ? (
        <ProgressBar className="ex-progress" label={t('exports.downloading')} value={progress} />
      ) : null}

      <EditionsCard
        list={list}
        mine={mine}
        onMine={(on) => {
          setMine(on);
          setPages(1);
        }}
        onMore={() => setPages((n) => n + 1)}
        language={language}
        t={t}
        busy={busy !== null}
        onLast={() => fetchFile('last', (p) => downloadLastReport(userId, language, p))}
        onDownload={(e) => fetchFile(`edition-${e.id}`, (p) => downloadEdition(userId, e, p))}
      />
    </div>
  );
}

/**
 * The state of fiscal date `dateFiscale` (wire date, null while the field is not a date) per site,
 * each with its day's ZIP; `onArchive` gets the site and the wire date the answer is for.
 */
function StatusCard(props: {
  dateFiscale: string | null;
  onDateFiscale: (date: string | null) => void;
  status: { isPending: boolean; data: ExportStatusAnswer | undefined };
  language: string;
  t: Translate;
  busy: boolean;
  onArchive: (site: ExportStatusSite, dateFiscale: string) => void;
}) {
  const { status, t } = props;
  const data = status.data;
  return (
    <Card labelledBy="ex-status-heading">
      <CardTitle id="ex-status-heading">{t('exports.status.heading')}</CardTitle>
      <DateField
        className="ex-date"
        label={t('exports.status.date')}
        value={props.dateFiscale}
        onChange={props.onDateFiscale}
        placeholder={t('exports.status.datePlaceholder')}
        invalidMessage={t('exports.status.invalidDate')}
      />
      {status.isPending && props.dateFiscale ? (
        <p className="ex-muted">{t('exports.status.loading')}</p>
      ) : data ? (
        data.sites.length === 0 ? (
          <p className="ex-muted">{t('exports.status.noSite')}</p>
        ) : (
          <ul className="ex-sites">
            {data.sites.map((s) => (
              <SiteState
                key={s.restaurantId}
                site={s}
                date={wireToDisplay(data.dateFiscale)}
                language={props.language}
                t={t}
                busy={props.busy}
                onArchive={() => props.onArchive(s, data.dateFiscale)}
              />
            ))}
          </ul>
        )
      ) : null}
    </Card>
  );
}

/**
 * The reports generated so far, `mine` only or everyone's, with "download the last one", a
 * download button per report and "more" while the server has more.
 */
function EditionsCard(props: {
  list: { isPending: boolean; isFetching: boolean; data: EditionsAnswer | undefined };
  mine: boolean;
  onMine: (mine: boolean) => void;
  onMore: () => void;
  language: string;
  t: Translate;
  busy: boolean;
  onLast: () => void;
  onDownload: (edition: Edition) => void;
}) {
  const { list, t } = props;
  return (
    <Card labelledBy="ex-list-heading">
      <div className="ex-list-head">
        <CardTitle id="ex-list-heading">{t('exports.list.heading')}</CardTitle>
        <Button variant="quiet" isDisabled={props.busy} onPress={props.onLast}>
          {t('exports.list.last')}
        </Button>
      </div>
      <Checkbox isSelected={props.mine} onChange={props.onMine}>
        {t('exports.list.mine')}
      </Checkbox>
      {list.isPending ? (
        <p className="ex-muted">{t('exports.list.loading')}</p>
      ) : !list.data || list.data.editions.length === 0 ? (
        <p className="ex-muted">{t('exports.list.empty')}</p>
      ) : (
        <>
          <EditionsTable
            editions={list.data.editions}
            language={props.language}
            t={t}
            busy={props.busy}
            onDownload={props.onDownload}
          />
          {list.data.more ? (
            <div className="ex-buttons">
              <Button onPress={props.onMore} isDisabled={list.isFetching}>
                {t('exports.list.more')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}

type Translate = (id: string, values?: Record<string, string | number>) => string;

function SiteState(props: {
  site: ExportStatusSite;
  /** The fiscal date shown, DD/MM/YYYY. */
  date: string;
  language: string;
  t: Translate;
  busy: boolean;
  onArchive: () => void;
}) {
  const { site, language, t } = props;
  return (
    <li className={`ex-site ex-site--${site.state}`}>
      <div className="ex-site__head">
        <h3 className="ex-site__name">{site.libelle}</h3>
        <span className="ex-badge">{t(`exports.state.${site.state}`)}</span>
      </div>
      <dl className="ex-figures">
        <div>
          <dt>{t('exports.status.tickets')}</dt>
          <dd>{formatNumber(site.tickets, language)}</dd>
        </div>
        <div>
          <dt>{t('exports.status.net')}</dt>
          <dd>{formatMoney(site.netCents, site.currency, language)}</dd>
        </div>
        <div>
          <dt>{t('exports.status.lastTicket')}</dt>
          <dd>{site.lastTicketAt ? formatInstant(site.lastTicketAt) : '–'}</dd>
        </div>
        <div>
          <dt>{t('exports.status.lastLoad')}</dt>
          <dd>
            {site.lastLoadAt
              ? `${formatInstant(site.lastLoadAt)}${site.lastLoadSource ? ` · ${site.lastLoadSource}` : ''}`
              : t('exports.status.notRecorded')}
          </dd>
        </div>
        <div>
          <dt>{t('exports.status.reports')}</dt>
          <dd>{formatNumber(site.reports, language)}</dd>
        </div>
      </dl>
      {site.tickets > 0 ? (
        <Button
          onPress={props.onArchive}
          isDisabled={props.busy}
          aria-label={t('exports.status.archiveOf', { site: site.libelle, date: props.date })}
        >
          {t('exports.status.archive')}
        </Button>
      ) : null}
      {site.tickets > 0 && site.reports === 0 ? <NoReportHint /> : null}
    </li>
  );
}

/**
 * What a manager reads under a day that has tickets but no report yet: what is missing and where
 * to make one (issue #20 item 15), with the way to /rapports.
 */
function NoReportHint() {
  const intl = useIntl();
  return (
    <p className="ex-hint">
      {intl.formatMessage(
        { id: 'exports.status.noReportHint' },
        {
          link: (chunks) => (
            <Link to="/rapports" className="ex-hint__link">
              {chunks}
            </Link>
          ),
        },
      )}
    </p>
  );
}

function EditionsTable(props: {
  editions: readonly Edition[];
  language: string;
  t: Translate;
  busy: boolean;
  onDownload: (edition: Edition) => void;
}) {
  const { t, language } = props;
  const columns = [
    'report',
    'period',
    'sites',
    'format',
    'size',
    'generatedAt',
    'by',
    'status',
    'action',
  ] as const;
  return (
    <div className="ex-table-scroll">
      <table className="ex-table">
        <caption className="visually-hidden">{t('exports.list.heading')}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={c === 'size' ? 'ex-num' : undefined}>
                {t(`exports.col.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.editions.map((e) => {
            const period = editionPeriod(e);
            const target = downloadFormat(e);
            return (
              <tr key={e.id} className={`ex-row ex-row--${e.status}`}>
                <th scope="row" data-label={t('exports.col.report')}>
                  {e.localisedTitle}
                  {e.variant !== 'Daily' ? ` · ${t(`report.variant.${e.variant}`)}` : ''}
                </th>
                <td data-label={t('exports.col.period')}>{period}</td>
                <td data-label={t('exports.col.sites')}>{editionSites(e)}</td>
                <td data-label={t('exports.col.format')}>
                  {e.format === 'JSON' ? t('exports.format.screen') : e.format}
                </td>
                <td data-label={t('exports.col.size')} className="ex-num">
                  {formatBytes(e.bytes, language)}
                </td>
                <td data-label={t('exports.col.generatedAt')}>{formatInstant(e.generatedAt)}</td>
                <td data-label={t('exports.col.by')}>{e.login}</td>
                <td data-label={t('exports.col.status')}>{t(`exports.edition.${e.status}`)}</td>
                <td data-label={t('exports.col.action')}>
                  <Button
                    onPress={() => props.onDownload(e)}
                    isDisabled={props.busy}
                    aria-label={t('exports.list.downloadOf', {
                      title: e.localisedTitle,
                      period,
                      format: target,
                    })}
                  >
                    {t('exports.list.download', { format: target })}
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
