/**
 * Start-up step 1 (issue #30): the first company and its sites. They are made on the
 * administration's own screen (/config/sites, its calls bo/infra/newSociete and newSite): this
 * step says what exists and leads there; the wizard reads the state again on return.
 */
import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import type { StartupStepProps } from './step-props.ts';

/** The panel of the module comment. */
export function CompanyStep({ state }: StartupStepProps) {
  return (
    <>
      <p className="ui-muted">
        <FormattedMessage id="startup.company.text" />
      </p>
      <p role="status">
        <FormattedMessage
          id="startup.company.counts"
          values={{ societes: state.societes, sites: state.sites }}
        />
      </p>
      <p>
        <Link to="/config/sites" className="startup__link">
          <FormattedMessage id="startup.company.open" />
        </Link>
      </p>
    </>
  );
}
