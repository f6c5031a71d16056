/**
 * audit-values.ts: an audit entry's fields, values and target named in the reader's language,
 * with the real catalogues (fr, de) and the value shapes the server records
 * (src/server/administration, messages, account).
 */
import { describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import fr from '../../i18n/fr.json';
import {
  type AuditLookups,
  fieldLabel,
  fieldValueText,
  targetName,
} from '../../src/client/features/audit-log/audit-values.ts';

function lookups(catalogue: Record<string, string>, locale: string): AuditLookups {
  return {
    message: (id) => catalogue[id],
    words: { empty: catalogue['audit.none']!, yes: catalogue['audit.yes']!, no: catalogue['audit.no']! },
    sites: new Map([
      [1, 'Paris'],
      [2, 'Lyon'],
    ]),
    profiles: new Map([[5, 'Caissiers']]),
    users: new Map([[7, 'compteur']]),
    companies: new Map([[3, 'Alpha SAS']]),
    locale,
  };
}
const look = lookups(fr, 'fr');

describe('audit field labels', () => {
  it('names every field the server records for messages, profiles and resets', () => {
    const fields = ['texts', 'fromDate', 'toDate', 'severity', 'profileIds', 'restaurantIds', 'allSites'];
    const more = [
      'criteres',
      'profileCaisse',
      'optionsTickets',
      'role',
      'via',
      'sessionsRevoked',
      'societeId',
    ];
    for (const f of [...fields, ...more]) expect(fieldLabel(f, look), f).not.toBe(f);
    expect(fieldLabel('severity', look)).toBe('Importance');
    expect(fieldLabel('severity', lookups(de, 'de'))).toBe('Dringlichkeit');
  });

  it('falls back to the raw name of a field the catalogue does not know yet', () => {
    expect(fieldLabel('newServerField', look)).toBe('newServerField');
  });
});

describe('audit values', () => {
  it('names sites and profiles by their ids, an unknown id as #id', () => {
    expect(fieldValueText('restaurantIds', [1, 2], look)).toBe('Paris, Lyon');
    expect(fieldValueText('restaurantIds', [1, 99], look)).toBe('Paris, #99');
    expect(fieldValueText('profileIds', [5], look)).toBe('Caissiers');
    expect(fieldValueText('profile', 5, look)).toBe('Caissiers');
    expect(fieldValueText('restaurantIds', [], look)).toBe('—');
    expect(fieldValueText('societeId', 3, look)).toBe('Alpha SAS');
    expect(fieldValueText('societesPlus', [3, 8], look)).toBe('Alpha SAS, #8');
  });

  it('shows rights by their labels, languages by their names, codes translated', () => {
    expect(fieldValueText('droits', ['RAPPORTS', 'COMPTAGE'], look)).toBe('Rapports, Comptage des caisses');
    expect(fieldValueText('droits', ['NEW_RIGHT'], look)).toBe('NEW_RIGHT');
    expect(fieldValueText('language', 'fr', look)).toBe('Français');
    expect(fieldValueText('language', 'fr', lookups(de, 'de'))).toBe('Französisch');
    expect(fieldValueText('severity', 'info', look)).toBe('Information');
    expect(fieldValueText('severity', 'warning', lookups(de, 'de'))).toBe('Warnung');
    expect(fieldValueText('via', 'emailLink', look)).toBe('lien reçu par e-mail');
    expect(fieldValueText('allSites', true, look)).toBe('oui');
    expect(fieldValueText('profileCaisse', false, lookups(de, 'de'))).toBe('nein');
  });

  it('writes objects as readable pairs, never as JSON', () => {
    expect(fieldValueText('texts', { en: 'Closed', fr: 'Fermé' }, look)).toBe('fr: Fermé; en: Closed');
    expect(fieldValueText('optionsTickets', { cancellations: true, cashed: false }, look)).toBe(
      'Annulations: oui; Encaissés: non',
    );
    expect(fieldValueText('criteres', { zone: 'Nord' }, look)).toBe('zone: Nord');
    expect(fieldValueText('caisses', [{ id: 1, libelle: 'Caisse 1' }], look)).toBe('Caisse 1');
    expect(fieldValueText('vendeurs', [{ code: '12', nom: 'Léa' }], look)).toBe('Léa');
    expect(fieldValueText('fromDate', '2026-03-01', look)).toBe('01/03/2026');
  });
});

describe('audit target', () => {
  it('names the target from what the entry recorded, after before before', () => {
    const entry = {
      kind: 'group',
      targetId: '3',
      before: { raisonSociale: 'Nord' },
      after: { raisonSociale: 'Nord-Est' },
    };
    expect(targetName(entry, look)).toBe('Nord-Est');
    expect(
      targetName({ kind: 'group', targetId: '3', before: { raisonSociale: 'Nord' }, after: null }, look),
    ).toBe('Nord');
    const message = {
      kind: 'message',
      targetId: '1',
      before: null,
      after: { texts: { en: 'Hi', fr: 'Salut' } },
    };
    expect(targetName(message, look)).toBe('Salut');
    expect(targetName(message, lookups(de, 'de'))).toBe('Hi');
  });

  it('names a user, profile or site by its id when the entry recorded no name, else nothing', () => {
    expect(
      targetName({ kind: 'user', targetId: '7', before: { email: null }, after: { email: 'a@b.c' } }, look),
    ).toBe('compteur');
    expect(targetName({ kind: 'profile', targetId: '5', before: null, after: { droits: [] } }, look)).toBe(
      'Caissiers',
    );
    expect(
      targetName({ kind: 'company', targetId: '4', before: null, after: { siren: null } }, look),
    ).toBeNull();
  });
});
