import { createFileRoute } from '@tanstack/react-router';
import { type ChoiceSearch, choiceOf, choiceSearch } from '../../features/bi/bi-choices.ts';
import { BiPage } from '../../features/bi/components/bi-page.tsx';
import { BiFavouriteSave } from '../../features/favourites/components/bi-favourite-save.tsx';
import { BiLegacyViews } from '../../features/favourites/components/bi-legacy-views.tsx';
import { BiAreaNav } from '../-components/bi-area-nav.tsx';

/**
 * /bi (SPEC.md §2, issue #19): the BI explorer, opened on the view its address names (a BI
 * favourite opened from /configFavoris: `?measure=…&dimension1=…&dimension2=…&comparison=…`),
 * with the favourites' "save as a favourite" and, once, the offer to move the views this device
 * kept before. Its chunk alone loads the chart library, on demand.
 */
export const Route = createFileRoute('/_authed/bi')({
  validateSearch: (search: Record<string, unknown>): ChoiceSearch => choiceSearch(search),
  component: function BiPageRoute() {
    const search = Route.useSearch();
    return (
      <>
        <BiAreaNav />
        {/* A new address (another favourite) opens the explorer afresh on its view. */}
        <BiPage
          key={JSON.stringify(search)}
          initialChoice={choiceOf(search)}
          saveSlot={(choice) => (
            <>
              <BiFavouriteSave view={choice} />
              <BiLegacyViews />
            </>
          )}
        />
      </>
    );
  },
});
