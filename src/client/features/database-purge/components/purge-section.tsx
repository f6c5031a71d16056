/**
 * The "empty the database" section of /config/bdd (issue #30, decision 0040, right ACCES_BASE):
 * one site's period or every site of the user's scope, with the mandatory reason (SPEC.md §5:
 * "emptying is irreversible and needs a reason"), a confirmation (ui/removal-dialog); the purge
 * runs on the job queue, and the section follows the newest run (also after a reload): under way,
 * failed (nothing deleted), or done with each site's archive file, its SHA-256 and the rows archived. What was typed stays on a
 * refusal; the refusal shows inside the dialog in the user's language.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate, wireToDisplay } from '../../../../contract/dates.ts';
import { PurgeCommentSchema, type PurgeRun, type SitePurge } from '../../../../contract/purge.ts';
import { notify } from '../../../lib/notifications.ts';
import { keyedFailure, RequestKeys } from '../../../lib/request-keys.ts';
import { session } from '../../../lib/session.ts';
import { referenceQueries } from '../../../selection/reference-queries.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { isPending, type PurgeRequest, purgeQueries, sendPurge } from '../purge-calls.ts';
import '../../../ui/page.css';
import './purge-section.css';

type Scope = 'partial' | 'all';

/** The first day of last month and its last day, as wire dates (the default period). */
function lastMonth(): { debut: string; fin: string } {
  const now = new Date();
  return {
    debut: toWireDate(new Date(now.getFullYear(), now.getMonth() - 1, 1)),
    fin: toWireDate(new Date(now.getFullYear(), now.getMonth(), 0)),
  };
}

/** The purge section of the module comment. */
export function PurgeSection() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const sites = useQuery({ ...referenceQueries.sites(), enabled: userId > 0 });
  const choices = (sites.data ?? []).filter((s) => s.libelle !== 'NON REMPLI');
  const [scope, setScope] = useState<Scope>('partial');
  const [site, setSite] = useState<number | null>(null);
  const [period, setPeriod] = useState(lastMonth);
  const [comment, setComment] = useState('');
  const [commentMissing, setCommentMissing] = useState(false);
  const [pending, setPending] = useState<PurgeRequest | null>(null);
  const { latest, purge } = usePurge(userId, () => setComment(''));
  const chosenSite = site ?? choices[0]?.restaurantId ?? null;
  const siteName = (id: number) => choices.find((s) => s.restaurantId === id)?.libelle ?? String(id);

  function ask() {
    const commentaire = PurgeCommentSchema.safeParse(comment);
    setCommentMissing(!commentaire.success);
    if (!commentaire.success) return;
    if (scope === 'all') {
      setPending({ kind: 'all', commentaire: commentaire.data });
    } else if (chosenSite !== null && period.debut <= period.fin) {
      setPending({ kind: 'partial', site: chosenSite, ...period, commentaire: commentaire.data });
    }
  }

  return (
    <Card labelledBy="purge-heading">
      <CardTitle id="purge-heading">{t('purge.heading')}</CardTitle>
      <p className="ui-muted">{t('purge.intro')}</p>
      <Select
        label={t('purge.scope')}
        options={[
          { id: 'partial', label: t('purge.scope.partial') },
          { id: 'all', label: t('purge.scope.all') },
        ]}
        value={scope}
        onChange={(key) => setScope(key as Scope)}
      />
      {scope === 'partial' ? (
        <PeriodFields
          t={t}
          choices={choices}
          site={chosenSite}
          onSite={setSite}
          period={period}
          onPeriod={setPeriod}
        />
      ) : null}
      <TextField
        label={t('purge.comment')}
        description={t('purge.comment.hint')}
        value={comment}
        onChange={(text) => {
          setComment(text);
          if (commentMissing && text.trim()) setCommentMissing(false);
        }}
        isRequired
        isInvalid={commentMissing}
        errorMessage={t('purge.comment.missing')}
      />
      <div className="ui-buttons">
        <Button
          variant="primary"
          onPress={ask}
          isDisabled={
            isPending(latest) ||
            (scope === 'partial' && (chosenSite === null || !period.debut || !period.fin))
          }
        >
          {t(scope === 'all' ? 'purge.submit.all' : 'purge.submit.partial')}
        </Button>
      </div>
      {latest ? <RunState run={latest} siteName={siteName} t={t} /> : null}
      <RemovalDialog
        target={pending}
        title={t(pending?.kind === 'all' ? 'purge.confirm.titleAll' : 'purge.confirm.title')}
        body={(request) => confirmBody(t, request, siteName)}
        confirmLabel={t('purge.confirm.ok')}
        cancelLabel={t('purge.confirm.cancel')}
        remove={purge}
        refusalText={(e) => t(keyedFailure(e, FAILURES).messageId)}
        onClose={() => setPending(null)}
      />
    </Card>
  );
}

const FAILURES = { offline: 'purge.offline', unexpected: 'app.unexpectedError' };

type Translate = (id: string, values?: Record<string, string | number>) => string;

/** The sentence of the confirmation: what goes. */
function confirmBody(t: Translate, request: PurgeRequest, siteName: (id: number) => string): string {
  if (request.kind === 'all') return t('purge.confirm.bodyAll');
  return t('purge.confirm.body', {
    site: siteName(request.site),
    debut: wireToDisplay(request.debut),
    fin: wireToDisplay(request.fin),
  });
}

/**
 * Sends a purge with its Idempotency-Key (kept until a definite answer, so a resend after a lost
 * answer replays it) and follows the run it queued; `onDone` once queued. A failure is rethrown
 * for the dialog to show. The success (EmptyOk, EmptyPartielOk) is told when the followed run
 * succeeds; after a reload the newest run is shown as it stands, without a toast.
 */
function usePurge(userId: number, onDone: () => void) {
  const queryClient = useQueryClient();
  const runs = useQuery({ ...purgeQueries.runs(userId), enabled: userId > 0 });
  const [followed, setFollowed] = useState<string | null>(null);
  const told = useRef<string | null>(null);
  const keys = useRef(new RequestKeys());
  const latest = runs.data?.[0];
  useEffect(() => {
    if (
      latest &&
      latest.runId === followed &&
      latest.statut === 'SUCCEEDED' &&
      told.current !== latest.runId
    ) {
      told.current = latest.runId;
      notify.success(latest.code);
    }
  }, [latest, followed]);
  async function purge(request: PurgeRequest) {
    const key = keys.current.keyFor(JSON.stringify(request));
    try {
      const run = await sendPurge(userId, request, key);
      keys.current.settle();
      setFollowed(run.runId);
      onDone();
      await queryClient.invalidateQueries({ queryKey: purgeQueries.all() });
    } catch (e) {
      if (keyedFailure(e, FAILURES).settle) keys.current.settle();
      throw e;
    }
  }
  return { latest, purge };
}

/** Where the newest purge stands: under way (a progress bar), failed (why), or done (what). */
function RunState({ run, siteName, t }: { run: PurgeRun; siteName: (id: number) => string; t: Translate }) {
  if (isPending(run)) {
    return (
      <ProgressBar
        label={t(run.statut === 'QUEUED' ? 'purge.run.queued' : 'purge.run.running')}
        value={null}
      />
    );
  }
  if (run.statut === 'FAILED') {
    return (
      <p role="alert" className="purge-failed">
        {t(`error.${run.erreur ?? 'InternalError'}`)}
      </p>
    );
  }
  return <PurgeResult purges={run.purges} siteName={siteName} t={t} />;
}

/** The site and the period of a partial empty. */
function PeriodFields(props: {
  t: Translate;
  choices: readonly { restaurantId: number; libelle: string }[];
  site: number | null;
  onSite: (site: number) => void;
  period: { debut: string; fin: string };
  onPeriod: (update: (p: { debut: string; fin: string }) => { debut: string; fin: string }) => void;
}) {
  const { t, period, onPeriod } = props;
  return (
    <>
      <Select
        label={t('purge.site')}
        options={props.choices.map((s) => ({ id: s.restaurantId, label: s.libelle }))}
        value={props.site}
        onChange={(key) => props.onSite(Number(key))}
      />
      <DateField
        label={t('purge.debut')}
        value={period.debut}
        onChange={(debut) => onPeriod((p) => ({ ...p, debut: debut ?? '' }))}
        placeholder={t('exports.status.datePlaceholder')}
        invalidMessage={t('exports.status.invalidDate')}
        isRequired
      />
      <DateField
        label={t('purge.fin')}
        value={period.fin}
        onChange={(fin) => onPeriod((p) => ({ ...p, fin: fin ?? '' }))}
        placeholder={t('exports.status.datePlaceholder')}
        invalidMessage={t('exports.status.invalidDate')}
        error={
          period.debut && period.fin && period.fin < period.debut ? t('purge.finBeforeDebut') : undefined
        }
        isRequired
      />
    </>
  );
}

/** The purges done: site, period, archive file, SHA-256, rows per table. */
function PurgeResult({
  purges,
  siteName,
  t,
}: {
  purges: SitePurge[];
  siteName: (id: number) => string;
  t: Translate;
}) {
  if (purges.length === 0) return <p role="status">{t('purge.result.nothing')}</p>;
  return (
    <section aria-labelledby="purge-result-heading" className="purge-result" data-testid="purge-result">
      <h3 id="purge-result-heading">{t('purge.result.heading')}</h3>
      <ul>
        {purges.map((p) => (
          <li key={p.purgeId}>
            <strong>{siteName(p.restaurantId)}</strong>{' '}
            {t('purge.result.period', { debut: wireToDisplay(p.debut), fin: wireToDisplay(p.fin) })}
            <br />
            {t('purge.result.archive')} <code className="purge-result__path">{p.archive}</code>
            <br />
            {t('purge.result.rows', {
              tickets: p.rows.tickets ?? 0,
              lines: p.rows.ticket_lines ?? 0,
              counts: (p.rows.cash_counts ?? 0) + (p.rows.safe_counts ?? 0),
            })}{' '}
            <span className="ui-muted">SHA-256 {p.sha256.slice(0, 16)}…</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
