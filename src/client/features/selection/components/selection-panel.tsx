/**
 * The whole selection in one block (sites, group, terminals, sellers, period), as /rapports shows
 * it. /home uses only the site and group pickers.
 */
import { useIntl } from 'react-intl';
import { PeriodPicker } from './period-picker.tsx';
import { GroupPicker, SellerPicker, SitePicker, TerminalPicker } from './site-pickers.tsx';

export function SelectionPanel() {
  const intl = useIntl();
  return (
    <section className="sel-panel" aria-label={intl.formatMessage({ id: 'selection.title' })}>
      <div className="sel-panel__where">
        <GroupPicker />
        <SitePicker />
        <TerminalPicker />
        <SellerPicker />
      </div>
      <PeriodPicker />
    </section>
  );
}
