/**
 * The `evenements` widget (contract/home.ts HomeEventsAnswerSchema): the local events of the
 * chosen sites in the next two weeks — what, when, and the expected impact on sales.
 */
import { useIntl } from 'react-intl';
import type { HomeEventsAnswer } from '../../../../contract/home.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';

type Events = HomeEventsAnswer['data'];

export function EventsWidget({ data }: { data: Events }) {
  const intl = useIntl();
  if (data.evenements.length === 0) {
    return (
      <p>
        {intl.formatMessage(
          { id: 'home.events.none' },
          { from: formatDate(data.dateDebut), to: formatDate(data.dateFin) },
        )}
      </p>
    );
  }
  return (
    <ul className="home-list">
      {data.evenements.map((e) => {
        const rate = formatNumber(e.tauxImpact / 100, intl.locale, {
          style: 'percent',
          maximumFractionDigits: 1,
        });
        const when =
          e.dateDebut === e.dateFin
            ? formatDate(e.dateDebut)
            : intl.formatMessage(
                { id: 'home.events.range' },
                { from: formatDate(e.dateDebut), to: formatDate(e.dateFin) },
              );
        return (
          <li key={e.uuid_evt}>
            <strong>{e.designation}</strong> — {when} —{' '}
            {intl.formatMessage({ id: `home.events.impact.${e.typeImpact}` }, { rate })}
          </li>
        );
      })}
    </ul>
  );
}
