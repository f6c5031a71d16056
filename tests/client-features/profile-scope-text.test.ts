/**
 * A profile's sites as /config/profils says them (issue #32 D.12): in an administrator's words,
 * naming the companies added and removed, never "aucun site, 1 société en plus".
 */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { Profile, Societe } from '../../src/contract/administration.ts';
import { scopeText } from '../../src/client/features/users-admin/profile-scope-text.ts';

const company = (id: number, raisonSociale: string): Societe => ({
  id,
  raisonSociale,
  enseigne: null,
  siren: null,
  siret: null,
  codeLicence: null,
  codeImplant: null,
  restaurantId: null,
  restaurantIds: [],
  sites: [],
});
const COMPANIES = [
  company(1, 'Brasseries du Comptoir'),
  company(2, 'Maison Ferrand'),
  company(3, 'Café Nord'),
];

const profile = (scope: Partial<Profile>): Profile => ({
  id: 9,
  titre: 'Zone',
  droits: [],
  criteres: {},
  allSites: false,
  restaurantIds: [],
  raisonsSociales: [],
  societesPlus: [],
  societesMoins: [],
  optionsTickets: {},
  profileCaisse: false,
  users: 0,
  ...scope,
});

const intl = {
  fr: createIntl({ locale: 'fr', messages: fr }),
  en: createIntl({ locale: 'en', messages: en }),
  de: createIntl({ locale: 'de', messages: de }),
};

describe("a profile's sites in words", () => {
  it('names the company whose sites a profile covers, instead of "aucun site, 1 société en plus"', () => {
    const p = profile({ societesPlus: [1] });
    expect(scopeText(intl.fr, p, COMPANIES)).toBe('Tous les sites de Brasseries du Comptoir');
    expect(scopeText(intl.en, p, COMPANIES)).toBe('Every site of Brasseries du Comptoir');
    expect(scopeText(intl.de, p, COMPANIES)).toBe('Alle Standorte von Brasseries du Comptoir');
  });

  it('counts the chosen sites, then the companies added and removed by name', () => {
    const p = profile({ restaurantIds: [4, 5], societesPlus: [1, 2], societesMoins: [3] });
    expect(scopeText(intl.fr, p, COMPANIES)).toBe(
      '2 sites choisis, et tous les sites de Brasseries du Comptoir et Maison Ferrand, sauf ceux de Café Nord',
    );
    expect(scopeText(intl.en, p, COMPANIES)).toBe(
      '2 chosen sites, and every site of Brasseries du Comptoir and Maison Ferrand, except those of Café Nord',
    );
    expect(scopeText(intl.fr, profile({ restaurantIds: [4] }), COMPANIES)).toBe('1 site choisi');
  });

  it('says every site for an all-sites profile, and no site when nothing is chosen', () => {
    expect(scopeText(intl.fr, profile({ allSites: true }), COMPANIES)).toBe(
      'Tous les sites, présents et futurs',
    );
    expect(scopeText(intl.fr, profile({}), COMPANIES)).toBe('Aucun site');
  });
});
