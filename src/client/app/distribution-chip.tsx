/**
 * The distribution's name as a chip beside the app's name in the header (SPEC.md §1: a
 * distribution may carry its own name). A distribution named like the app itself ("Comptoir")
 * would read "Comptoir Comptoir" (issue #20 item 10): the chip shows only when the names differ,
 * ignoring case, accents and surrounding spaces.
 */
import { useIntl } from 'react-intl';

/** Lower case, no accents, no surrounding spaces: "  Comptoir " and "comptoir" are the same name. */
function sameName(a: string, b: string): boolean {
  const plain = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .trim()
      .toLowerCase();
  return plain(a) === plain(b);
}

/**
 * @param name the distribution's name (server info `client`), or null/empty when it has none.
 * @param className the chip's class (header or footer placement).
 */
export function DistributionChip({
  name,
  className,
}: {
  name: string | null | undefined;
  className: string;
}) {
  const intl = useIntl();
  if (!name || sameName(name, intl.formatMessage({ id: 'app.name' }))) return null;
  return <span className={className}>{name}</span>;
}
