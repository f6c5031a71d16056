/**
 * /config/adoria, /config/easilys, /config/ecash, /config/consolidations (issue #29
 * "Integrations", decision 0044, right CONFIGURATION): one screen per partner. Settings (enabled,
 * sites, destination: a folder under DATA_DIR/exports/ or an HTTPS endpoint with its headers,
 * secret ones stored encrypted and never shown back), the file layout (columns chosen, named and
 * ordered, CSV options, file name pattern, a preview from real data), "send a test file now", "run now" (optionally sending days already sent
 * again), and the history: runs of the partner's job and deliveries per site and day, failures
 * with their reason. A refusal keeps what was typed.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate } from '../../../../contract/dates.ts';
import type { Integration, Partner } from '../../../../contract/integrations.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notify } from '../../../lib/notifications.ts';
import { keyedFailure, RequestKeys } from '../../../lib/request-keys.ts';
import { session } from '../../../lib/session.ts';
import { referenceQueries } from '../../../selection/reference-queries.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { FormRefusal, ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { type Draft, draftOf, type ItemError, itemError, saveBody } from '../integration-draft.ts';
import { integrationQueries, runIntegrationNow, saveIntegration } from '../integration-queries.ts';
import { HeaderFields } from './header-fields.tsx';
import { LayoutFields } from './layout-fields.tsx';
import '../../../ui/page.css';
import './integrations.css';

/** The destination: a folder, or an HTTPS address, its method and headers. */
function DestinationFields({
  partner,
  draft,
  set,
  fieldError,
  itemError,
}: {
  partner: Partner;
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  fieldError: string | null;
  itemError: ItemError | null;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const d = draft.destination;
  return (
    <>
      <Select
        label={t('integrations.destination')}
        options={[
          { id: 'folder', label: t('integrations.destination.folder') },
          { id: 'https', label: t('integrations.destination.https') },
        ]}
        value={d.type}
        onChange={(k) =>
          set({
            destination:
              k === 'folder'
                ? { type: 'folder', dossier: partner }
                : { type: 'https', url: 'https://', methode: 'POST', entetes: [] },
          })
        }
      />
      {d.type === 'folder' ? (
        <TextField
          label={t('integrations.folder')}
          description={t('integrations.folder.help')}
          value={d.dossier}
          onChange={(v) => set({ destination: { ...d, dossier: v } })}
          isInvalid={fieldError === 'destination'}
        />
      ) : (
        <>
          <TextField
            label={t('integrations.url')}
            value={d.url}
            onChange={(v) => set({ destination: { ...d, url: v } })}
            isInvalid={fieldError === 'destination'}
          />
          <Select
            label={t('integrations.method')}
            options={[
              { id: 'POST', label: 'POST' },
              { id: 'PUT', label: 'PUT' },
            ]}
            value={d.methode}
            onChange={(k) => set({ destination: { ...d, methode: k as typeof d.methode } })}
          />
          <HeaderFields
            headers={draft.entetes}
            setHeaders={(entetes) => set({ entetes })}
            error={itemError}
          />
        </>
      )}
    </>
  );
}

/** The settings card: what is sent, where, how. */
function SettingsCard({ partner, userId, saved }: { partner: Partner; userId: number; saved: Integration }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const queryClient = useQueryClient();
  const sites = useQuery(referenceQueries.sites());
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [refusal, setRefusal] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [item, setItem] = useState<ItemError | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = useRef(new RequestKeys());
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setLayout = (patch: Partial<Draft['mise']>) => set({ mise: { ...draft.mise, ...patch } });

  async function submit() {
    if (busy) return;
    setRefusal(null);
    setFieldError(null);
    setItem(null);
    const json = saveBody(draft);
    setBusy(true);
    try {
      const answer = await saveIntegration(userId, json, keys.current.keyFor(JSON.stringify(json)));
      keys.current.settle();
      queryClient.setQueryData(integrationQueries.config(userId, partner).queryKey, answer);
      setDraft(draftOf(answer));
      notify.success('SuccessMod');
    } catch (e) {
      const outcome = keyedFailure(e, { offline: 'error.Network Error', unexpected: 'app.unexpectedError' });
      if (outcome.settle) keys.current.settle();
      const field = e instanceof ApiFailure && e.code === 'InvalidField' ? String(e.details?.field) : null;
      const one = e instanceof ApiFailure && e.code === 'InvalidField' ? itemError(e.details) : null;
      if (one) {
        setItem(one);
        setFieldError(one.field);
        setRefusal(
          t(
            one.reason === 'SecretKeyMissing'
              ? 'integrations.error.secretKey'
              : `integrations.error.${one.field === 'colonnes' ? 'column' : 'header'}.${one.reason}`,
          ),
        );
      } else if (field) {
        setFieldError(field);
        setRefusal(t(`integrations.error.${field}`));
      } else setRefusal(t(outcome.messageId));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card labelledBy="integration-settings-heading">
      <CardTitle id="integration-settings-heading">{t('integrations.settings')}</CardTitle>
      <ValidatedForm
        className="ui-form"
        onSubmit={() => void submit()}
        refusal={null}
        aria-labelledby="integration-settings-heading"
      >
        <Checkbox isSelected={draft.actif} onChange={(v) => set({ actif: v })}>
          {t('integrations.enabled')}
        </Checkbox>
        <fieldset className="ui-fieldset">
          <legend>{t('integrations.sites')}</legend>
          {(sites.data ?? [])
            .filter((s) => s.libelle !== 'NON REMPLI')
            .map((s) => (
              <Checkbox
                key={s.restaurantId}
                isSelected={draft.sites.includes(s.restaurantId)}
                onChange={(v) =>
                  set({
                    sites: v
                      ? [...draft.sites, s.restaurantId]
                      : draft.sites.filter((x) => x !== s.restaurantId),
                  })
                }
              >
                {s.libelle}
              </Checkbox>
            ))}
        </fieldset>
        <DestinationFields
          partner={partner}
          draft={draft}
          set={set}
          fieldError={fieldError}
          itemError={item}
        />
        <LayoutFields userId={userId} draft={draft} setLayout={setLayout} error={item} onError={setItem} />
        <FormRefusal text={refusal} />
        <div className="ui-buttons">
          <Button type="submit" variant="primary" isDisabled={busy}>
            {t('integrations.save')}
          </Button>
        </div>
      </ValidatedForm>
    </Card>
  );
}

/** The run card: a day, send a test file, run now (optionally again), then the history. */
function RunCard({ partner, userId }: { partner: Partner; userId: number }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const queryClient = useQueryClient();
  const runs = useQuery(integrationQueries.runs(userId, partner));
  const [day, setDay] = useState<string | null>(() => toWireDate(new Date(Date.now() - 86_400_000)));
  const [again, setAgain] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const keys = useRef(new RequestKeys());

  async function run(test: boolean) {
    setRefusal(null);
    const body = { partenaire: partner, ...(day ? { dateFiscale: day } : {}), test, renvoyer: again };
    try {
      await runIntegrationNow(userId, body, keys.current.keyFor(`${JSON.stringify(body)}${Date.now()}`));
      keys.current.settle();
      notify.success('IntegrationQueued');
      await queryClient.invalidateQueries({ queryKey: integrationQueries.runs(userId, partner).queryKey });
    } catch (e) {
      const outcome = keyedFailure(e, {
        offline: 'error.Network Error',
        unexpected: 'app.unexpectedError',
        byCode: { NotFound: 'integrations.error.notSaved' },
      });
      keys.current.settle();
      setRefusal(t(outcome.messageId));
    }
  }

  const status = (s: string) => t(`integrations.status.${s}`);
  return (
    <Card labelledBy="integration-run-heading">
      <CardTitle id="integration-run-heading">{t('integrations.run')}</CardTitle>
      <DateField
        label={t('integrations.day')}
        value={day}
        onChange={setDay}
        placeholder={t('exports.status.datePlaceholder')}
        invalidMessage={t('exports.status.invalidDate')}
      />
      <Checkbox isSelected={again} onChange={setAgain}>
        {t('integrations.again')}
      </Checkbox>
      <FormRefusal text={refusal} />
      <div className="ui-buttons">
        <Button onPress={() => void run(true)}>{t('integrations.testFile')}</Button>
        <Button variant="primary" onPress={() => void run(false)}>
          {t('integrations.runNow')}
        </Button>
      </div>
      <Table
        label={t('integrations.runs')}
        columns={[
          { key: 'planifie', label: t('integrations.runs.planned'), isRowHeader: true },
          { key: 'statut', label: t('integrations.runs.status') },
          { key: 'tentatives', label: t('integrations.runs.attempts'), align: 'end' },
          { key: 'fichiers', label: t('integrations.runs.files') },
          { key: 'erreur', label: t('integrations.runs.error') },
        ]}
        rows={(runs.data?.executions ?? []).map((r, i) => ({
          id: `${r.planifie}-${i}`,
          cells: {
            planifie: `${r.planifie.slice(0, 16).replace('T', ' ')}${r.test ? ` (${t('integrations.runs.test')})` : ''}`,
            statut: status(r.statut),
            tentatives: r.tentatives,
            fichiers: r.fichiers.map((f) => f.nom).join(', '),
            erreur: r.erreur ?? '',
          },
        }))}
        empty={t('integrations.runs.none')}
      />
      <Table
        label={t('integrations.deliveries')}
        columns={[
          { key: 'dateFiscale', label: t('integrations.day'), isRowHeader: true },
          { key: 'siteId', label: t('integrations.site') },
          { key: 'statut', label: t('integrations.runs.status') },
          { key: 'fichier', label: t('integrations.runs.files') },
          { key: 'erreur', label: t('integrations.runs.error') },
        ]}
        rows={(runs.data?.livraisons ?? []).map((l) => ({
          id: `${l.siteId}-${l.dateFiscale}`,
          cells: {
            dateFiscale: l.dateFiscale,
            siteId: l.siteId,
            statut: status(l.statut),
            fichier: l.fichier,
            erreur: l.erreur ?? '',
          },
        }))}
        empty={t('integrations.deliveries.none')}
      />
    </Card>
  );
}

/** The screen of `partner`. */
export function IntegrationPage({ partner }: { partner: Partner }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const config = useQuery({ ...integrationQueries.config(userId, partner), enabled: !!user });
  return (
    <div className="ui-page">
      <h1>{t(`integrations.title.${partner}`)}</h1>
      <p className="ui-muted">{t(`integrations.intro.${partner}`)}</p>
      {config.isError ? <FormRefusal text={t('integrations.loadFailed')} /> : null}
      {config.data ? (
        <SettingsCard key={partner} partner={partner} userId={userId} saved={config.data} />
      ) : null}
      {user ? <RunCard partner={partner} userId={userId} /> : null}
    </div>
  );
}
