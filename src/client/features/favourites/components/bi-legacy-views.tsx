/**
 * The once-only offer on /bi for views saved on this device before favourites held them
 * (legacy-bi-views.ts): move them into the user's favourites — each with the sites and period
 * chosen on the screen, under its name (made unique) — or forget them. Either way the device's
 * copy is emptied; a view the server refuses stays there, and the offer with it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { BiView } from '../../../../contract/bi.ts';
import { API_RIGHTS, satisfies } from '../../../../contract/rights.ts';
import { notify } from '../../../lib/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { favouriteQueries, saveFavourite } from '../favourite-queries.ts';
import { biFavouriteFromSelection } from '../favourite-selection.ts';
import { freeName, keepLegacyViews, readLegacyViews } from '../legacy-bi-views.ts';
import '../../../ui/page.css';
import './favourites.css';

/**
 * Saves each of `views` as a BI favourite; returns those the server refused (kept on the device).
 * Names are made unique against `taken` and each other.
 */
async function moveViews(views: readonly BiView[], taken: string[], title: string): Promise<BiView[]> {
  const refused: BiView[] = [];
  for (const v of views) {
    const name = freeName(v.name, taken);
    const { name: _, ...view } = v;
    const built = biFavouriteFromSelection(selection, view, name, title);
    try {
      if (!built.ok) throw new Error(built.messageId);
      await saveFavourite(built.body);
      taken.push(name);
    } catch {
      refused.push(v);
    }
  }
  await queryClient.invalidateQueries({ queryKey: favouriteQueries.all() });
  return refused;
}

export function BiLegacyViews() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const allowed = user !== null && satisfies(API_RIGHTS['POST bo/favoris/save'], user.droits);
  const [views, setViews] = useState<BiView[]>(() => (user ? readLegacyViews(user.id) : []));
  const list = useQuery({ ...favouriteQueries.list(user?.id ?? 0), enabled: allowed && views.length > 0 });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!allowed || !user || views.length === 0) return null;
  const userId = user.id;

  async function move() {
    setBusy(true);
    try {
      const taken = (list.data ?? []).map((f) => f.libelle);
      const refused = await moveViews(views, taken, intl.formatMessage({ id: 'bi.title' }));
      keepLegacyViews(userId, refused);
      setViews(refused);
      setFailed(refused.length > 0);
      if (refused.length === 0) notify.success('SuccessMod');
    } finally {
      setBusy(false);
    }
  }

  function forget() {
    keepLegacyViews(userId, []);
    setViews([]);
  }

  return (
    <Card labelledBy="bi-legacy-title" className="fav-bi-legacy">
      <CardTitle id="bi-legacy-title">{intl.formatMessage({ id: 'favourites.bi.legacy.title' })}</CardTitle>
      <p>
        {intl.formatMessage(
          { id: 'favourites.bi.legacy.body' },
          {
            count: views.length,
            names: intl.formatList(
              views.map((v) => v.name),
              { type: 'conjunction' },
            ),
          },
        )}
      </p>
      {failed ? (
        <p className="ui-refusal" role="alert">
          {intl.formatMessage({ id: 'favourites.bi.legacy.failed' })}
        </p>
      ) : null}
      <div className="ui-buttons">
        <Button variant="primary" onPress={() => void move()} isDisabled={busy || list.isPending}>
          {intl.formatMessage({ id: 'favourites.bi.legacy.move' })}
        </Button>
        <Button onPress={forget} isDisabled={busy}>
          {intl.formatMessage({ id: 'favourites.bi.legacy.forget' })}
        </Button>
      </div>
    </Card>
  );
}
