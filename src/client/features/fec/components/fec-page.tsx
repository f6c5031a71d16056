/**
 * /fec (issue #29, right FEC_CONFIGURATION): pick a company and a period, download its FEC (the
 * sales journal as article A47 A-1 LPF lays it out, decision record 0037). The server checks the
 * file before it is offered; a failed check is shown with the entry and the rule, and no file.
 * The company's sites not kept in EUR are named (a FEC is in euros, decision 0037): the export
 * is refused until "leave them out" is ticked. Below, the files its FEC recurrences kept
 * (fec-files.tsx), and the chosen company's account plan, editable (fec-plan-form.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate } from '../../../../contract/dates.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { Select } from '../../../ui/select.tsx';
import { downloadFec, fecQueries } from '../fec-queries.ts';
import { FecFiles } from './fec-files.tsx';
import { FecForeignNotice } from './fec-foreign-notice.tsx';
import { FecPlanForm } from './fec-plan-form.tsx';
import '../../../ui/page.css';

/** The first day of the current month, as a wire date. */
function monthStart(): string {
  const now = new Date();
  return toWireDate(new Date(now.getFullYear(), now.getMonth(), 1));
}

/** The /fec screen: company, period (this month so far by default), download; the company's account plan. */
export function FecPage() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const companies = useQuery({ ...fecQueries.companies(userId), enabled: !!user });
  const [societe, setSociete] = useState<number | null>(null);
  const [dateDebut, setDateDebut] = useState<string | null>(monthStart);
  const [dateFin, setDateFin] = useState<string | null>(() => toWireDate(new Date()));
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const t = (id: string) => intl.formatMessage({ id });
  const chosen = societe ?? companies.data?.[0]?.id ?? null;
  const plan = useQuery({ ...fecQueries.plan(userId, chosen ?? 0), enabled: !!user && chosen !== null });
  const foreign = plan.data?.societe === chosen ? (plan.data?.sitesHorsEuro ?? []) : [];
  const [excludeForeign, setExcludeForeign] = useState(false);

  async function run() {
    if (chosen === null || !dateDebut || !dateFin) return;
    setBusy(true);
    setProgress(null);
    try {
      const { blob, filename } = await downloadFec(
        userId,
        chosen,
        dateDebut,
        dateFin,
        setProgress,
        foreign.length > 0 && excludeForeign,
      );
      saveFile(blob, filename);
      notify.success('exportOk');
    } catch (e) {
      notifyFailure(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="ui-page">
      <h1>{t('fec.title')}</h1>
      <p className="ui-muted">{t('fec.intro')}</p>
      <Card labelledBy="fec-export-heading">
        <CardTitle id="fec-export-heading">{t('fec.export.heading')}</CardTitle>
        {companies.isPending ? (
          <p className="ui-muted">{t('fec.loading')}</p>
        ) : (
          <Select
            label={t('fec.company')}
            options={(companies.data ?? []).map((c) => ({
              id: c.id,
              label: c.siret ? `${c.raisonSociale} (${c.siret.slice(0, 9)})` : c.raisonSociale,
            }))}
            value={chosen}
            onChange={(key) => setSociete(Number(key))}
          />
        )}
        <DateField
          label={t('fec.dateDebut')}
          value={dateDebut}
          onChange={setDateDebut}
          placeholder={t('exports.status.datePlaceholder')}
          invalidMessage={t('exports.status.invalidDate')}
        />
        <DateField
          label={t('fec.dateFin')}
          value={dateFin}
          onChange={setDateFin}
          placeholder={t('exports.status.datePlaceholder')}
          invalidMessage={t('exports.status.invalidDate')}
        />
        <FecForeignNotice sites={foreign} exclude={excludeForeign} onExclude={setExcludeForeign} />
        <div className="ui-buttons">
          <Button
            variant="primary"
            onPress={() => void run()}
            isDisabled={busy || chosen === null || !dateDebut || !dateFin}
          >
            {t('fec.download')}
          </Button>
        </div>
        {busy ? <ProgressBar label={t('fec.downloading')} value={progress} /> : null}
      </Card>
      {chosen !== null && user ? <FecFiles userId={userId} societe={chosen} /> : null}
      {chosen !== null && user ? <FecPlanForm userId={userId} societe={chosen} /> : null}
    </div>
  );
}
