/**
 * The files the FEC recurrences of the chosen company kept (issue #29 "FEC recurrences", decision
 * 0043), on /fec: period, recurrence (with the non-euro sites the file leaves out, decision 0037),
 * the run that wrote it, and a download button per file (GET bo/fec/file). Links to /fec/recurrencesfec, where the recurrences are set.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { wireToDisplay } from '../../../../contract/dates.ts';
import { notifyFailure } from '../../../lib/notifications.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Table } from '../../../ui/table.tsx';
import { downloadFecFile, fecRecurrenceQueries } from '../fec-queries.ts';
import { runText } from './fec-recurrences-page.tsx';

/** The card of the module comment for company `societe`. */
export function FecFiles({ userId, societe }: { userId: number; societe: number }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const files = useQuery(fecRecurrenceQueries.files(userId, societe));
  const [busy, setBusy] = useState<number | null>(null);

  async function fetchFile(id: number) {
    setBusy(id);
    try {
      const { blob, filename } = await downloadFecFile(userId, societe, id, () => {});
      saveFile(blob, filename);
    } catch (e) {
      notifyFailure(e);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card labelledBy="fec-files-heading">
      <CardTitle id="fec-files-heading">{t('fec.files.heading')}</CardTitle>
      <p>
        <Link to="/fec/recurrencesfec">{t('fec.recurrencesLink')}</Link>
      </p>
      {files.isPending ? (
        <p className="ui-muted">{t('fecRecurrences.loading')}</p>
      ) : (
        <Table
          label={t('fec.files.heading')}
          columns={[
            { key: 'period', label: t('fec.files.col.period'), isRowHeader: true },
            { key: 'recurrence', label: t('fec.files.col.recurrence') },
            { key: 'run', label: t('fec.files.col.run') },
            { key: 'file', label: t('fec.files.col.file') },
          ]}
          rows={(files.data?.fichiers ?? []).map((f) => ({
            id: String(f.id),
            cells: {
              period: `${wireToDisplay(f.dateDebut)} – ${wireToDisplay(f.dateFin)}`,
              recurrence:
                f.sitesExclus && f.sitesExclus.length > 0 ? (
                  <>
                    {f.libelle}
                    <br />
                    <span className="ui-muted">
                      {t('fec.files.excluded', {
                        sites: f.sitesExclus.map((s) => `${s.libelle} (${s.devise})`).join(', '),
                      })}
                    </span>
                  </>
                ) : (
                  f.libelle
                ),
              run: runText(t, f.run),
              file: (
                <Button
                  onPress={() => void fetchFile(f.id)}
                  isDisabled={busy === f.id}
                  aria-label={t('fec.files.download', { nom: f.nom })}
                >
                  {t('fec.files.action')}
                </Button>
              ),
            },
          }))}
          empty={t('fec.files.empty')}
        />
      )}
    </Card>
  );
}
