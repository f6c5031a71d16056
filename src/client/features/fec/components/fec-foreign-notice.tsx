/**
 * /fec's notice of the company's sites not kept in euros (issue #29, decision 0037 § "Sites not
 * in euros"): it names them with their currency and says why they cannot be in the FEC, in the
 * user's language, with the box that leaves them out of the export (`exclureHorsEuro`). Nothing
 * when every site is in euros.
 */
import { useIntl } from 'react-intl';
import type { FecForeignSite } from '../../../../contract/fec.ts';
import { Checkbox } from '../../../ui/checkbox.tsx';
import './fec-plan.css';

/** `sites`: the company's sites not in EUR; `exclude`/`onExclude`: the "leave them out" box. */
export function FecForeignNotice({
  sites,
  exclude,
  onExclude,
}: {
  sites: readonly FecForeignSite[];
  exclude: boolean;
  onExclude: (exclude: boolean) => void;
}) {
  const intl = useIntl();
  if (sites.length === 0) return null;
  return (
    <>
      <p className="fec-warning" role="status">
        {intl.formatMessage(
          { id: 'fec.foreign.notice' },
          { noms: sites.map((s) => `${s.libelle} (${s.devise})`).join(', ') },
        )}
      </p>
      <Checkbox isSelected={exclude} onChange={onExclude}>
        {intl.formatMessage({ id: 'fec.foreign.exclude' })}
      </Checkbox>
    </>
  );
}
