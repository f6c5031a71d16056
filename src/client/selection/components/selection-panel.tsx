/**
 * The whole selection in one block (sites, group, terminals, sellers, period), as /rapports and
 * /tickets show it; with `sitesOnly`, the group and sites and the dates alone (no terminals,
 * sellers or hours), for screens that look at whole sites (/graphs). /home uses only the site and
 * group pickers.
 */
import { useIntl } from 'react-intl';
import { PeriodPicker } from './period-picker.tsx';
import { GroupPicker, SellerPicker, SitePicker, TerminalPicker } from './site-pickers.tsx';

export function SelectionPanel({ sitesOnly = false }: { sitesOnly?: boolean }) {
  const intl = useIntl();
  return (
    <section className="sel-panel" aria-label={intl.formatMessage({ id: 'selection.title' })}>
      <div className="sel-panel__where">
        <GroupPicker />
        <SitePicker />
        {sitesOnly ? null : (
          <>
            <TerminalPicker />
            <SellerPicker />
          </>
        )}
      </div>
      <PeriodPicker showHours={!sitesOnly} />
    </section>
  );
}
