/**
 * The whole selection in one block (sites, group, terminals, sellers, period), as /rapports and
 * /tickets show it; with `sitesOnly`, the group and sites and the dates alone (no terminals,
 * sellers or hours), for screens that look at whole sites (/graphs). /home uses only the site and
 * group pickers.
 */
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { PeriodPicker } from './period-picker.tsx';
import { GroupPicker, SellerPicker, SitePicker, TerminalPicker } from './site-pickers.tsx';

export function SelectionPanel({
  sitesOnly = false,
  singleSiteMode = false,
  periodBefore,
  hidePeriodDates = false,
}: {
  sitesOnly?: boolean;
  /** The screen has a single-site mode (/rapports: SitePicker's `singleSiteMode`). */
  singleSiteMode?: boolean;
  /** First in the period's card (/rapports' separate days); see PeriodPicker's `before`. */
  periodBefore?: ReactNode;
  /** Leave the period's dates out (separate days chosen instead); the hours stay. */
  hidePeriodDates?: boolean;
}) {
  const intl = useIntl();
  return (
    <section className="sel-panel" aria-label={intl.formatMessage({ id: 'selection.title' })}>
      <div className="sel-panel__where">
        <GroupPicker />
        <SitePicker singleSiteMode={singleSiteMode} />
        {sitesOnly ? null : (
          <>
            <TerminalPicker singleSiteMode={singleSiteMode} />
            <SellerPicker singleSiteMode={singleSiteMode} />
          </>
        )}
      </div>
      <PeriodPicker showHours={!sitesOnly} before={periodBefore} hideDates={hidePeriodDates} />
    </section>
  );
}
