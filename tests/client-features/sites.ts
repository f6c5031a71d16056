/**
 * Sites as bo/getSites answers them, for the client tests. No DOM and no React here, so the
 * tests that run without either (reference loading, site scope) share it with support.tsx.
 */
import type { Site } from '../../src/contract/api.ts';

/**
 * A site as bo/getSites answers it: company 1, euros, Europe/Paris, in the group TOUS, no
 * terminals, sellers nor implant code, unless `fields` says otherwise.
 */
export function testSite(restaurantId: number, libelle: string, fields: Partial<Site> = {}): Site {
  return {
    restaurantId,
    libelle,
    societeId: 1,
    currency: 'EUR',
    timeZone: 'Europe/Paris',
    caisses: [],
    vendeurs: [],
    groupe: ['TOUS'],
    extras: { code_implant: null },
    ...fields,
  };
}
