/**
 * "Save as a favourite" on /bi (issue #19): the explorer's current view (measure, dimensions,
 * comparison) with the sites and period chosen above it, saved as a favourite of the BI class
 * under a name (required, unique among the user's favourites; what was typed stays when saving
 * is refused). Shown only to users whose rights let them keep favourites.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { BiFavouriteView } from '../../../../contract/favourites.ts';
import { API_RIGHTS, satisfies } from '../../../../contract/rights.ts';
import { session } from '../../../lib/session.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { favouriteFailureCode, favouriteQueries, useSaveFavouriteMutation } from '../favourite-queries.ts';
import { biFavouriteFromSelection } from '../favourite-selection.ts';
import { FavouriteNameForm } from './favourite-name-form.tsx';
import '../../../ui/page.css';
import './favourites.css';

export function BiFavouriteSave({ view }: { view: BiFavouriteView }) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const allowed = user !== null && satisfies(API_RIGHTS['POST bo/favoris/save'], user.droits);
  const list = useQuery({ ...favouriteQueries.list(user?.id ?? 0), enabled: allowed });
  const save = useSaveFavouriteMutation();
  const [error, setError] = useState<string | null>(null);
  if (!allowed) return null;

  async function saveView(name: string): Promise<boolean> {
    setError(null);
    const built = biFavouriteFromSelection(selection, view, name, intl.formatMessage({ id: 'bi.title' }));
    if (!built.ok) {
      setError(intl.formatMessage({ id: built.messageId }));
      return false;
    }
    try {
      await save.mutateAsync(built.body);
      return true;
    } catch (e) {
      setError(intl.formatMessage({ id: `error.${favouriteFailureCode(e)}` }));
      return false;
    }
  }

  return (
    <Card labelledBy="bi-favourite-title" className="fav-bi-save">
      <CardTitle id="bi-favourite-title">{intl.formatMessage({ id: 'favourites.bi.save.title' })}</CardTitle>
      <p className="ui-muted fav-muted">{intl.formatMessage({ id: 'favourites.bi.save.intro' })}</p>
      <FavouriteNameForm
        submitLabel={intl.formatMessage({ id: 'favourites.bi.save' })}
        onSubmit={saveView}
        takenNames={(list.data ?? []).map((f) => f.libelle)}
        error={error}
      />
      <Link to="/configFavoris" className="fav-link">
        {intl.formatMessage({ id: 'favourites.manage' })}
      </Link>
    </Card>
  );
}
