/**
 * /configFavoris (SPEC.md §2 "Favourite reports configuration"): the user's favourites with their
 * report, sites, period, format and, when chosen, sort, grouping and filter; opening one fills the selection of /rapports and goes there
 * (a BI favourite: its sites and period, then /bi on its view);
 * "New favourite" mode saves the current selection under a name (SPEC.md §4); rename; delete
 * after a confirmation (SPEC.md §5).
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { type Favourite, FavouriteSaveBodySchema } from '../../../../contract/favourites.ts';
import type { ResultsChoicesAnswer } from '../../../../contract/exports.ts';
import type { ReportClassInfo } from '../../../../contract/reports.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { reportClassQueries } from '../../../lib/report-class-queries.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { Card, CardTitle, cardClass } from '../../../ui/card.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { dispatchFavouriteMode, favouriteMode } from '../favourite-mode.ts';
import {
  favouriteFailureCode,
  favouriteQueries,
  useRemoveFavouriteMutation,
  useSaveFavouriteMutation,
} from '../favourite-queries.ts';
import { type ChosenReport, favouriteFromSelection } from '../favourite-selection.ts';
import {
  describeBiView,
  describeFilter,
  describeFormat,
  describeGrouping,
  describePeriod,
  describeReport,
  describeSites,
  describeSort,
} from '../favourite-summary.ts';
import { notifyDroppedSites, useApplyFavourite } from '../use-apply-favourite.ts';
import { FavouriteNameForm } from './favourite-name-form.tsx';
import '../../../ui/page.css';
import './favourites.css';

export interface FavouritesPageProps {
  /** Report classes the user may run (bo/rapport/metrics), for today's titles; empty while unknown. */
  editions: readonly ReportClassInfo[];
}

/** The report a new favourite takes: the one chosen on /rapports, else the first of the list (as /rapports shows). */
function chosenReport(editions: readonly ReportClassInfo[]): ChosenReport | null {
  const edition = editions.find((e) => e.className === selection.report.className) ?? editions[0];
  if (!edition) return null;
  const { typeRapport, format } = selection.report;
  return {
    className: edition.className,
    localisedTitle: edition.localisedTitle,
    typeRapport: edition.variants.includes(typeRapport) ? typeRapport : (edition.variants[0] ?? 'Daily'),
    format: edition.formats.includes(format) ? format : 'PDF',
  };
}

/** What a favourite's summary shows besides its own fields: its report title, its sites, its class's column names. */
type DescribeFavourite = (favourite: Favourite) => {
  report: string;
  sites: string;
  choices: ResultsChoicesAnswer | undefined;
};

/**
 * Column and filter names, by class name (bo/getResultsChoices), of the classes whose `favourites`
 * keep a sort, grouping or filter; until they arrive, or if they fail, a class is absent and the
 * summaries show the keys.
 */
function useChoicesByClass(favourites: readonly Favourite[]): Map<string, ResultsChoicesAnswer> {
  const { user } = useSnapshot(session);
  const [language] = useLanguage();
  const shapedClasses = [
    ...new Set(
      favourites.filter((f) => f.tri || f.regroupement || f.isFilters).map((f) => f.typeRapport.className),
    ),
  ];
  const choiceAnswers = useQueries({
    queries: shapedClasses.map((className) => ({
      ...reportClassQueries.choices(user?.id ?? 0, className, language),
      enabled: user !== null,
    })),
  });
  const choicesByClass = new Map<string, ResultsChoicesAnswer>();
  for (const answer of choiceAnswers) {
    if (answer.data) choicesByClass.set(answer.data.className, answer.data);
  }
  return choicesByClass;
}

/** The current selection as "New favourite" would save it, or null when it cannot be saved as it is. */
function previewOf(chosen: ChosenReport | null): Favourite | null {
  const draft = chosen ? favouriteFromSelection(selection, chosen, '-') : null;
  const preview = draft?.ok ? FavouriteSaveBodySchema.safeParse(draft.body) : null;
  return preview?.success ? { ...preview.data, id: 0 } : null;
}

/**
 * The favourites' mutations of the page: save the selection as a new favourite, rename one, and
 * the error each shows in its form (translated, SPEC.md §8).
 */
function useFavouriteEdits(chosen: ChosenReport | null) {
  const intl = useIntl();
  const save = useSaveFavouriteMutation();
  const [newError, setNewError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Favourite | null>(null);
  const [renameError, setRenameError] = useState<string | null>(null);

  async function saveNew(name: string): Promise<boolean> {
    setNewError(null);
    if (!chosen) {
      setNewError(intl.formatMessage({ id: 'error.NoReportInState' }));
      return false;
    }
    const built = favouriteFromSelection(selection, chosen, name);
    if (!built.ok) {
      setNewError(intl.formatMessage({ id: built.messageId }));
      return false;
    }
    try {
      const saved = await save.mutateAsync(built.body);
      dispatchFavouriteMode({ type: 'savedNew', id: saved.id });
      return true;
    } catch (e) {
      setNewError(intl.formatMessage({ id: `error.${favouriteFailureCode(e)}` }));
      return false;
    }
  }

  async function rename(favourite: Favourite, name: string): Promise<boolean> {
    setRenameError(null);
    try {
      await save.mutateAsync({ ...favourite, libelle: name });
      setRenaming(null);
      return true;
    } catch (e) {
      setRenameError(intl.formatMessage({ id: `error.${favouriteFailureCode(e)}` }));
      return false;
    }
  }

  function startRename(favourite: Favourite) {
    setRenameError(null);
    setRenaming(favourite);
  }

  return {
    saving: save.isPending,
    newError,
    setNewError,
    saveNew,
    renaming,
    renameError,
    startRename,
    stopRename: () => setRenaming(null),
    rename,
  };
}

/**
 * Opening a favourite: a report's fills the selection of /rapports and goes there; a BI one sets
 * the sites and period and opens /bi on its view (the address carries it). `ready` as in
 * useApplyFavourite.
 */
function useOpenFavourite() {
  const navigate = useNavigate();
  const { ready, apply, applyBi } = useApplyFavourite();
  async function open(favourite: Favourite) {
    if (favourite.bi) {
      const opened = applyBi({ ...favourite, bi: favourite.bi });
      if (!opened.applied) return;
      const { measure, dimension1, dimension2, comparison } = opened.view;
      await navigate({
        to: '/bi',
        search: {
          measure,
          dimension1: dimension1 ?? undefined,
          dimension2: dimension2 ?? undefined,
          comparison,
        },
      });
      notifyDroppedSites(opened.droppedSites);
      return;
    }
    const result = apply(favourite);
    if (!result.applied) return;
    await navigate({ to: '/rapports' });
    notifyDroppedSites(result.droppedSites);
  }
  return { ready, open };
}

/** The /configFavoris screen, with today's report titles from `editions`. */
export function FavouritesPage({ editions }: FavouritesPageProps) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const mode = useSnapshot(favouriteMode);
  useSnapshot(selection); // the new-favourite summary follows the selection
  const ref = useReferenceData();
  const list = useQuery({ ...favouriteQueries.list(user?.id ?? 0), enabled: user !== null });
  const favourites = list.data ?? [];
  const titles = new Map(editions.map((e) => [e.className, e.localisedTitle]));
  const chosen = chosenReport(editions);
  const previewFavourite = previewOf(chosen);
  const choicesByClass = useChoicesByClass([...favourites, ...(previewFavourite ? [previewFavourite] : [])]);
  const describe: DescribeFavourite = (f) => ({
    report: describeReport(intl, f, titles),
    sites: describeSites(intl, f, ref.sites, ref.groups),
    choices: choicesByClass.get(f.typeRapport.className),
  });
  const { ready, open } = useOpenFavourite();
  const edits = useFavouriteEdits(chosen);
  const [deleting, setDeleting] = useState<Favourite | null>(null);

  return (
    <div className="ui-page">
      <div className="ui-page__head">
        <h1 className="ui-page__title">{intl.formatMessage({ id: 'favourites.title' })}</h1>
        <Button
          variant="primary"
          onPress={() => {
            edits.setNewError(null);
            dispatchFavouriteMode({ type: 'startNew' });
          }}
          isDisabled={mode.newMode}
        >
          {intl.formatMessage({ id: 'favourites.new' })}
        </Button>
      </div>
      <p className="ui-muted">{intl.formatMessage({ id: 'favourites.intro' })}</p>

      {mode.newMode ? (
        <NewFavouriteCard
          preview={previewFavourite}
          describe={describe}
          takenNames={favourites.map((f) => f.libelle)}
          onSubmit={edits.saveNew}
          error={edits.newError}
        />
      ) : null}

      {list.isPending ? (
        <p className="ui-muted">{intl.formatMessage({ id: 'favourites.loading' })}</p>
      ) : list.isError ? (
        <div className="ui-refusal" role="alert">
          <p>{intl.formatMessage({ id: 'favourites.loadFailed' })}</p>
          <Button onPress={() => void list.refetch()}>
            {intl.formatMessage({ id: 'favourites.retry' })}
          </Button>
        </div>
      ) : favourites.length === 0 ? (
        <p className={`${cardClass} ui-muted`}>{intl.formatMessage({ id: 'favourites.empty' })}</p>
      ) : (
        <FavouriteList
          favourites={favourites}
          selectedId={mode.selectedId}
          describe={describe}
          canOpen={ready}
          onOpen={(f) => void open(f)}
          onRename={edits.startRename}
          onDelete={setDeleting}
        />
      )}

      <Dialog
        title={intl.formatMessage({ id: 'favourites.rename.title' })}
        isOpen={edits.renaming !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) edits.stopRename();
        }}
        isDismissable={!edits.saving}
      >
        {edits.renaming ? (
          <FavouriteNameForm
            autoFocus
            initialName={edits.renaming.libelle}
            submitLabel={intl.formatMessage({ id: 'favourites.rename' })}
            onSubmit={(name) =>
              edits.renaming ? edits.rename(edits.renaming, name) : Promise.resolve(false)
            }
            takenNames={favourites.filter((f) => f.id !== edits.renaming?.id).map((f) => f.libelle)}
            onCancel={edits.stopRename}
            error={edits.renameError}
          />
        ) : null}
      </Dialog>

      <DeleteDialog deleting={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** "New favourite" mode: what the selection would be saved as, a link to change it, and the name form. */
function NewFavouriteCard(props: {
  preview: Favourite | null;
  describe: DescribeFavourite;
  takenNames: readonly string[];
  onSubmit: (name: string) => Promise<boolean>;
  error: string | null;
}) {
  const intl = useIntl();
  return (
    <Card className="fav-new" labelledBy="fav-new-heading">
      <CardTitle id="fav-new-heading">{intl.formatMessage({ id: 'favourites.new.title' })}</CardTitle>
      <p className="ui-muted">{intl.formatMessage({ id: 'favourites.new.intro' })}</p>
      {props.preview ? <FavouriteFacts favourite={props.preview} {...props.describe(props.preview)} /> : null}
      <Link to="/rapports" className="fav-link">
        {intl.formatMessage({ id: 'favourites.new.editSelection' })}
      </Link>
      <FavouriteNameForm
        autoFocus
        submitLabel={intl.formatMessage({ id: 'favourites.save' })}
        onSubmit={props.onSubmit}
        takenNames={props.takenNames}
        onCancel={() => dispatchFavouriteMode({ type: 'cancelNew' })}
        error={props.error}
      />
    </Card>
  );
}

/** The favourites, each with its summary and its open, rename and delete buttons. */
function FavouriteList(props: {
  favourites: readonly Favourite[];
  selectedId: number | null;
  describe: DescribeFavourite;
  /** False until the reference data needed to open a favourite has arrived. */
  canOpen: boolean;
  onOpen: (favourite: Favourite) => void;
  onRename: (favourite: Favourite) => void;
  onDelete: (favourite: Favourite) => void;
}) {
  const intl = useIntl();
  return (
    <ul className="ui-list" aria-label={intl.formatMessage({ id: 'favourites.list' })}>
      {props.favourites.map((f) => {
        const isSelected = f.id === props.selectedId;
        return (
          <li key={f.id} className="ui-item fav-item" data-selected={isSelected || undefined}>
            <h2 className="ui-item__name fav-item__name">
              {f.libelle}
              {isSelected ? (
                <span className="ui-badge">{intl.formatMessage({ id: 'favourites.selected' })}</span>
              ) : null}
            </h2>
            <FavouriteFacts favourite={f} {...props.describe(f)} />
            <div className="ui-buttons fav-item__actions">
              <Button
                variant="primary"
                onPress={() => props.onOpen(f)}
                isDisabled={!props.canOpen}
                aria-label={intl.formatMessage(
                  { id: f.bi ? 'favourites.open.bi.label' : 'favourites.open.label' },
                  { name: f.libelle },
                )}
              >
                {intl.formatMessage({ id: f.bi ? 'favourites.open.bi' : 'favourites.open' })}
              </Button>
              <Button
                onPress={() => props.onRename(f)}
                aria-label={intl.formatMessage({ id: 'favourites.rename.label' }, { name: f.libelle })}
              >
                {intl.formatMessage({ id: 'favourites.rename' })}
              </Button>
              <Button
                className="ui-danger"
                onPress={() => props.onDelete(f)}
                aria-label={intl.formatMessage({ id: 'favourites.delete.label' }, { name: f.libelle })}
              >
                {intl.formatMessage({ id: 'favourites.delete' })}
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The confirmation before deleting favourite `deleting` (SPEC.md §5); closed while it is null. */
function DeleteDialog({ deleting, onClose }: { deleting: Favourite | null; onClose: () => void }) {
  const intl = useIntl();
  const remove = useRemoveFavouriteMutation();
  return (
    <ConfirmDialog
      isOpen={deleting !== null}
      title={intl.formatMessage({ id: 'favourites.delete.title' })}
      body={
        deleting ? intl.formatMessage({ id: 'favourites.delete.body' }, { name: deleting.libelle }) : null
      }
      confirmLabel={intl.formatMessage({ id: 'favourites.delete.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'favourites.cancel' })}
      busy={remove.isPending}
      onConfirm={() => {
        if (!deleting) return;
        const target = deleting;
        remove.mutate(target.id, {
          onSuccess: () => dispatchFavouriteMode({ type: 'removed', id: target.id }),
          onSettled: onClose,
        });
      }}
      onCancel={onClose}
    />
  );
}

/** Report, sites, period, format and, when chosen, sort, grouping and filter of a favourite, as a description list. */
function FavouriteFacts({
  favourite,
  report,
  sites,
  choices,
}: {
  favourite: Favourite;
  report: string;
  sites: string;
  /** What the favourite's class offers (bo/getResultsChoices), to name its columns; absent while unknown. */
  choices: ResultsChoicesAnswer | undefined;
}) {
  const intl = useIntl();
  const isBi = favourite.bi !== null;
  const optional: [string, string | null][] = [
    ['favourites.field.view', describeBiView(intl, favourite)],
    ['favourites.field.format', isBi ? null : describeFormat(intl, favourite)],
    ['favourites.field.sort', describeSort(intl, favourite, choices)],
    ['favourites.field.grouping', describeGrouping(intl, favourite, choices)],
    ['favourites.field.filter', describeFilter(intl, favourite, choices)],
  ];
  const rows: [string, string][] = [
    ['favourites.field.report', report],
    ['favourites.field.sites', sites],
    ['favourites.field.period', describePeriod(intl, favourite)],
    ...optional.filter((row): row is [string, string] => row[1] !== null),
  ];
  return (
    <dl className="ui-facts">
      {rows.map(([label, value]) => (
        <div key={label} className="ui-facts__row">
          <dt>{intl.formatMessage({ id: label })}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
