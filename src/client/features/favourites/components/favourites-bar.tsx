/**
 * The favourites on /rapports: a quick picker that fills the selection with a favourite, and
 * "Save as favourite", which asks a name in a dialog (what was typed stays there when saving
 * fails) or updates the favourite currently selected (SPEC.md §4).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { Favourite } from '../../../../contract/favourites.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { Select } from '../../../ui/select.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { dispatchFavouriteMode, favouriteMode } from '../favourite-mode.ts';
import { favouriteFailureCode, favouriteQueries, useSaveFavouriteMutation } from '../favourite-queries.ts';
import { type ChosenReport, favouriteFromSelection } from '../favourite-selection.ts';
import { notifyDroppedSites, useApplyFavourite } from '../use-apply-favourite.ts';
import { FavouriteNameForm } from './favourite-name-form.tsx';
import '../../../ui/page.css';
import './favourites.css';

export interface FavouritesBarProps {
  /** The report as /rapports resolved it (class, variant, format), or null while none is known. */
  chosen: ChosenReport | null;
  /** Called after a favourite filled the selection (the page drops a preview of another report). */
  onApplied?: () => void;
}

export function FavouritesBar({ chosen, onApplied }: FavouritesBarProps) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const mode = useSnapshot(favouriteMode);
  const list = useQuery({ ...favouriteQueries.list(user?.id ?? 0), enabled: user !== null });
  const allFavourites = list.data ?? [];
  // BI favourites open on /bi (from /configFavoris), not in the selection of a report.
  const favourites = allFavourites.filter((f) => f.bi === null);
  const { ready, apply } = useApplyFavourite();
  const save = useSaveFavouriteMutation();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const selected = favourites.find((f) => f.id === mode.selectedId);

  /** Saves the selection as favourite `libelle` (a new one, or `target` replaced). */
  async function saveSelection(libelle: string, target?: Favourite): Promise<boolean> {
    setError(null);
    if (!chosen) return false;
    const built = favouriteFromSelection(selection, chosen, libelle);
    if (!built.ok) {
      setError(intl.formatMessage({ id: built.messageId }));
      return false;
    }
    try {
      const saved = await save.mutateAsync(target ? { ...built.body, id: target.id } : built.body);
      dispatchFavouriteMode(target ? { type: 'select', id: saved.id } : { type: 'savedNew', id: saved.id });
      setOpen(false);
      return true;
    } catch (e) {
      setError(intl.formatMessage({ id: `error.${favouriteFailureCode(e)}` }));
      return false;
    }
  }

  return (
    <Card className="fav-bar" labelledBy="fav-bar-heading">
      <CardTitle id="fav-bar-heading">{intl.formatMessage({ id: 'favourites.title' })}</CardTitle>
      <div className="fav-bar__row">
        <Select
          className="fav-bar__picker"
          label={intl.formatMessage({ id: 'favourites.picker' })}
          placeholder={intl.formatMessage({
            id:
              favourites.length === 0 && list.isSuccess
                ? 'favourites.picker.none'
                : 'favourites.picker.placeholder',
          })}
          options={favourites.map((f) => ({ id: f.id, label: f.libelle }))}
          value={selected?.id ?? null}
          isDisabled={!ready || favourites.length === 0}
          onChange={(key) => {
            const favourite = favourites.find((f) => f.id === key);
            if (!favourite) return;
            const result = apply(favourite);
            if (!result.applied) return;
            onApplied?.();
            notifyDroppedSites(result.droppedSites);
          }}
        />
        <div className="ui-buttons fav-bar__actions">
          <Button
            onPress={() => {
              setError(null);
              setOpen(true);
            }}
            isDisabled={!chosen}
          >
            {intl.formatMessage({ id: 'favourites.saveAs' })}
          </Button>
          <Link to="/configFavoris" className="fav-link">
            {intl.formatMessage({ id: 'favourites.manage' })}
          </Link>
        </div>
      </div>
      <Dialog
        title={intl.formatMessage({ id: 'favourites.saveAs.title' })}
        isOpen={open}
        onOpenChange={setOpen}
        isDismissable={!save.isPending}
      >
        <p className="ui-muted fav-muted">{intl.formatMessage({ id: 'favourites.saveAs.intro' })}</p>
        <FavouriteNameForm
          autoFocus
          submitLabel={intl.formatMessage({ id: 'favourites.save' })}
          onSubmit={(name) => saveSelection(name)}
          takenNames={allFavourites.map((f) => f.libelle)}
          onCancel={() => setOpen(false)}
          error={error}
          extraActions={
            selected ? (
              <Button
                onPress={() => void saveSelection(selected.libelle, selected)}
                isDisabled={save.isPending}
              >
                {intl.formatMessage({ id: 'favourites.update' }, { name: selected.libelle })}
              </Button>
            ) : null
          }
        />
      </Dialog>
    </Card>
  );
}
