/**
 * The lookups naming an audit entry's ids and codes (audit-values.ts): the catalogue of the
 * interface language, the user's sites (reference data, selection/), the profiles, the companies
 * and the users.
 * A list still loading, or refused, names nothing yet: its ids show as `#id` meanwhile.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { referenceQueries } from '../../../selection/reference-queries.ts';
import { auditQueries } from '../audit-queries.ts';
import type { AuditLookups } from '../audit-values.ts';

/** id → name of `list`, empty while it loads. */
function byId<T>(list: readonly T[] | undefined, id: (t: T) => number, name: (t: T) => string) {
  return new Map((list ?? []).map((t) => [id(t), name(t)]));
}

/** The lookups of the signed-in reader, rebuilt when a list arrives or the language changes. */
export function useAuditLookups(): AuditLookups {
  const intl = useIntl();
  const sites = useQuery(referenceQueries.sites());
  const profiles = useQuery(auditQueries.profiles());
  const users = useQuery(auditQueries.users());
  const companies = useQuery(auditQueries.companies());
  return useMemo(
    () => ({
      message: (id: string) => (id in intl.messages ? intl.formatMessage({ id }) : undefined),
      words: {
        empty: intl.formatMessage({ id: 'audit.none' }),
        yes: intl.formatMessage({ id: 'audit.yes' }),
        no: intl.formatMessage({ id: 'audit.no' }),
      },
      sites: byId(
        sites.data,
        (s) => s.restaurantId,
        (s) => s.libelle,
      ),
      profiles: byId(
        profiles.data,
        (p) => p.id,
        (p) => p.titre,
      ),
      users: byId(
        users.data,
        (u) => u.id,
        (u) => u.login,
      ),
      companies: byId(
        companies.data,
        (c) => c.id,
        (c) => c.raisonSociale,
      ),
      locale: intl.locale,
    }),
    [intl, sites.data, profiles.data, users.data, companies.data],
  );
}
