/**
 * The administration screens' own checks and readings, as pure functions: SIREN/SIRET checked as
 * typed (9 and 14 digits, SIRET starting with the SIREN), the site form (currency, IANA time
 * zone, HH:mm day start, named terminals and sellers, 'NON REMPLI'), a group's effective sites
 * (own sites + added companies − removed companies), and an audit entry's changed fields.
 */
import { describe, expect, it } from 'vitest';
import type { Societe } from '../../src/contract/administration.ts';
import { changedFields, valueText } from '../../src/client/features/audit-log/audit-diff.ts';
import {
  type CompanyDraft,
  companyInput,
  companyProblems,
  showsWhileTyping,
} from '../../src/client/features/sites-admin/company-rules.ts';
import { effectiveSiteIds, groupProblems } from '../../src/client/features/sites-admin/group-rules.ts';
import {
  isHiddenLabel,
  type SiteDraft,
  siteIsValid,
  siteProblems,
  timeZones,
} from '../../src/client/features/sites-admin/site-rules.ts';

const company: CompanyDraft = {
  raisonSociale: 'Alpha SAS',
  enseigne: '',
  siren: '',
  siret: '',
  codeLicence: '',
  codeImplant: '',
};

describe('company form', () => {
  it('accepts a SIREN of 9 digits and a SIRET of 14 starting with it, typed with spaces', () => {
    const draft = { ...company, siren: '123 456 789', siret: '123 456 789 00011' };
    expect(companyProblems(draft)).toEqual({});
    expect(companyInput(draft)).toMatchObject({ siren: '123456789', siret: '12345678900011' });
  });

  it('refuses a SIREN or SIRET of the wrong length or with letters, and a SIRET of another SIREN', () => {
    expect(companyProblems({ ...company, siren: '12345678' }).siren).toBe('sirenDigits');
    expect(companyProblems({ ...company, siren: '12345678A' }).siren).toBe('sirenDigits');
    expect(companyProblems({ ...company, siret: '1234567890001' }).siret).toBe('siretDigits');
    expect(companyProblems({ ...company, siren: '123456789', siret: '98765432100011' }).siret).toBe(
      'siretNotSiren',
    );
    expect(companyProblems({ ...company, siret: '98765432100011' })).toEqual({});
  });

  it('requires the raison sociale', () => {
    expect(companyProblems({ ...company, raisonSociale: '  ' })).toEqual({ raisonSociale: 'required' });
  });

  it('shows a letter or a digit too many at once, but "too short" only once the field is left', () => {
    expect(showsWhileTyping('siren', { ...company, siren: '1234' })).toBe(false);
    expect(showsWhileTyping('siren', { ...company, siren: '12a' })).toBe(true);
    expect(showsWhileTyping('siren', { ...company, siren: '1234567890' })).toBe(true);
    expect(showsWhileTyping('siret', { ...company, siren: '123456789', siret: '98765432100011' })).toBe(true);
  });
});

const site: SiteDraft = {
  libelle: 'Paris',
  societeId: 1,
  codeImplant: '',
  currency: 'EUR',
  timeZone: 'Europe/Paris',
  dayStart: '05:00',
  caisses: [{ id: 1, libelle: 'Caisse 1' }],
  vendeurs: [{ code: '01', nom: 'Alice' }],
};

describe('site form', () => {
  it('accepts a complete site', () => {
    expect(siteIsValid(siteProblems(site))).toBe(true);
  });

  it('refuses an unknown currency, a zone not in the IANA list, a 12-hour or impossible time', () => {
    expect(siteProblems({ ...site, currency: 'EURO' }).fields.currency).toBe('currency');
    expect(siteProblems({ ...site, timeZone: 'Europe/Lutece' }).fields.timeZone).toBe('timeZone');
    expect(siteProblems({ ...site, dayStart: '5 AM' }).fields.dayStart).toBe('dayStart');
    expect(siteProblems({ ...site, dayStart: '24:00' }).fields.dayStart).toBe('dayStart');
  });

  it('requires a label, a company, and a name for every terminal and seller', () => {
    const problems = siteProblems({
      ...site,
      libelle: '',
      societeId: null,
      caisses: [{ id: 2, libelle: ' ' }],
      vendeurs: [{ code: '07', nom: '' }],
    });
    expect(problems).toEqual({
      fields: { libelle: 'required', societeId: 'required' },
      emptyTerminals: [2],
      emptySellers: ['07'],
    });
  });

  it("offers the device's IANA zones, and tells a 'NON REMPLI' site whatever its case", () => {
    expect(timeZones()).toEqual(expect.arrayContaining(['Europe/Paris', 'America/New_York', 'UTC']));
    expect(isHiddenLabel(' non rempli ')).toBe(true);
    expect(isHiddenLabel('Paris')).toBe(false);
  });
});

const companies = [
  { id: 1, sites: [{ restaurantId: 10 }, { restaurantId: 11 }] },
  { id: 2, sites: [{ restaurantId: 20 }, { restaurantId: 21 }] },
] as unknown as Societe[];

describe('group effective sites', () => {
  it('are its own sites plus the added companies’ minus the removed companies’', () => {
    expect(
      effectiveSiteIds({ restaurantIds: [10], societesPlus: [2], societesMoins: [] }, companies),
    ).toEqual([10, 20, 21]);
    expect(
      effectiveSiteIds({ restaurantIds: [10, 20], societesPlus: [], societesMoins: [2] }, companies),
    ).toEqual([10]);
  });

  it('refuses an empty name and a company both added and removed', () => {
    expect(
      groupProblems({ raisonSociale: '', restaurantIds: [], societesPlus: [1], societesMoins: [1] }),
    ).toEqual({ name: 'required', companies: 'plusAndMinus' });
  });
});

describe('audit diff', () => {
  it('keeps only the fields that changed, lists compared by content', () => {
    expect(
      changedFields(
        { login: 'marie', active: true, restaurantIds: [1, 2], email: null },
        { login: 'marie', active: false, restaurantIds: [1, 2], email: 'm@example.com' },
      ),
    ).toEqual([
      { field: 'active', before: true, after: false },
      { field: 'email', before: null, after: 'm@example.com' },
    ]);
  });

  it('shows every field of a creation as new and of a removal as gone', () => {
    expect(changedFields(null, { titre: 'Gérant' })).toEqual([
      { field: 'titre', before: undefined, after: 'Gérant' },
    ]);
    expect(changedFields({ titre: 'Gérant' }, null)).toEqual([
      { field: 'titre', before: 'Gérant', after: undefined },
    ]);
  });

  it('writes values as text: empty, yes/no, lists, objects', () => {
    const words = { empty: '—', yes: 'oui', no: 'non' };
    expect([null, true, false, [1, 2], [], { a: 1 }, 'x', 3].map((v) => valueText(v, words))).toEqual([
      '—',
      'oui',
      'non',
      '1, 2',
      '—',
      '{"a":1}',
      'x',
      '3',
    ]);
  });
});
