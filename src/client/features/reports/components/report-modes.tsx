/**
 * /rapports' two modes (SPEC.md §6, §7): single-site mode, where the report is about one site
 * chosen in the site picker and goes to bo/getReportSite (a user limited to one site at a time,
 * LIMITATION_SITE, is always there and is told so); and training mode, where the reports read the
 * tickets rung up in training (`trainingMode=true`), which stay out of every normal report. While
 * training mode is on, a banner at the top of the page says so and offers the way out.
 */
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { selection } from '../../../selection/selection-state.ts';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';

/** Leaves training mode. */
function leaveTraining(): void {
  selection.trainingMode = false;
}

/** The card of both modes; `onChange` drops a dataset shown for the former mode. */
export function ReportModesCard({ onChange }: { onChange: () => void }) {
  const intl = useIntl();
  const sel = useSnapshot(selection);
  const scope = useSiteScope({ singleSiteMode: true });
  return (
    <Card labelledBy="rep-modes-heading">
      <CardTitle id="rep-modes-heading">{intl.formatMessage({ id: 'reports.modes' })}</CardTitle>
      <div className="rep-modes">
        {scope.limited ? (
          <p className="rep-muted" data-testid="one-site-limited">
            {intl.formatMessage({ id: 'reports.singleSite.limited' })}
          </p>
        ) : scope.visible.length > 1 ? (
          <Checkbox
            isSelected={sel.singleSite}
            onChange={(on) => {
              selection.singleSite = on;
              onChange();
            }}
          >
            {intl.formatMessage({ id: 'reports.singleSite' })}
          </Checkbox>
        ) : null}
        <Checkbox
          isSelected={sel.trainingMode}
          onChange={(on) => {
            selection.trainingMode = on;
            onChange();
          }}
        >
          {intl.formatMessage({ id: 'reports.training' })}
        </Checkbox>
        <p className="rep-muted">{intl.formatMessage({ id: 'reports.training.hint' })}</p>
      </div>
    </Card>
  );
}

/** The banner shown at the top of /rapports while training mode is on, with its way out. */
export function TrainingBanner({ onLeave }: { onLeave: () => void }) {
  const intl = useIntl();
  const sel = useSnapshot(selection);
  if (!sel.trainingMode) return null;
  return (
    <div className="rep-training" role="status" data-testid="training-banner">
      <p className="rep-training__text">{intl.formatMessage({ id: 'reports.training.banner' })}</p>
      <Button
        onPress={() => {
          leaveTraining();
          onLeave();
        }}
      >
        {intl.formatMessage({ id: 'reports.training.leave' })}
      </Button>
    </div>
  );
}
