/**
 * The pure rules of the /config/<partner> form (features/integrations/integration-draft.ts): a
 * stored secret header shows as stored and is saved without its value (so the server keeps it),
 * a replaced or new one is sent with what was typed, the column picker offers the partner's
 * fields, a move keeps every column, and a refusal naming a column or a header is read back.
 */
import { describe, expect, it } from 'vitest';
import type { Integration } from '../../src/contract/integrations.ts';
import {
  draftOf,
  fieldsOf,
  itemError,
  moved,
  saveBody,
} from '../../src/client/features/integrations/integration-draft.ts';

const saved: Integration = {
  partenaire: 'consolidations',
  actif: true,
  sites: [1],
  regleId: null,
  destination: {
    type: 'https',
    url: 'https://partner.example/in',
    methode: 'POST',
    entetes: [
      { nom: 'X-Client', valeur: 'comptoir', secret: false },
      { nom: 'Authorization', secret: true },
    ],
  },
  identifiantsEnregistres: true,
  mise: {
    colonnes: [
      { champ: 'siteCode', nom: 'site_code' },
      { champ: 'amount', nom: 'amount' },
    ],
    separateur: ',',
    virguleDecimale: false,
    encodage: 'utf-8',
    entete: true,
    formatDate: 'YYYY-MM-DD',
    nomFichier: 'consolidation_{site}_{date}.csv',
  },
};

describe('the integration draft', () => {
  it('shows a stored secret as stored and saves it without value, a replaced one with it', () => {
    const draft = draftOf(saved);
    expect(draft.entetes).toEqual([
      { nom: 'X-Client', valeur: 'comptoir', secret: false, stored: false },
      { nom: 'Authorization', valeur: '', secret: true, stored: true },
    ]);
    const body = saveBody(draft);
    expect(body.destination).toMatchObject({
      entetes: [
        { nom: 'X-Client', valeur: 'comptoir', secret: false },
        { nom: 'Authorization', secret: true },
      ],
    });
    expect('identifiantsEnregistres' in body).toBe(false);
    expect('entetes' in body).toBe(false);
    const replaced = saveBody({
      ...draft,
      entetes: [{ nom: ' X-Api-Key ', valeur: 'typed', secret: true, stored: false }],
    });
    expect(replaced.destination).toMatchObject({
      entetes: [{ nom: 'X-Api-Key', valeur: 'typed', secret: true }],
    });
  });

  it('sends no headers for a folder, offers the partner’s fields, moves a column keeping all', () => {
    const folder = saveBody(draftOf({ ...saved, destination: { type: 'folder', dossier: 'x' } }));
    expect(folder.destination).toEqual({ type: 'folder', dossier: 'x' });
    expect(fieldsOf('ecash')).toContain('tickets');
    expect(fieldsOf('ecash')).not.toContain('article');
    expect(fieldsOf('adoria')).toContain('vatRate');
    expect(moved(['a', 'b', 'c', 'd'], 3, 2)).toEqual(['a', 'b', 'd', 'c']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });

  it('reads a refusal naming one column or header, and nothing else', () => {
    expect(itemError({ field: 'colonnes', index: 2, reason: 'BadName' })).toEqual({
      field: 'colonnes',
      index: 2,
      reason: 'BadName',
    });
    expect(itemError({ field: 'entetes', index: 0, reason: 'ReservedName' })).toMatchObject({ index: 0 });
    expect(itemError({ field: 'destination', reason: 'BadUrl' })).toBeNull();
    expect(itemError({ field: 'colonnes' })).toBeNull();
    expect(itemError(undefined)).toBeNull();
  });
});
