/**
 * The /bi address check (features/bi/bi-choices.ts `choiceSearch`), written without zod so the
 * route tree loaded at start stays light: it keeps a view the explorer can answer and drops
 * anything else whole, as the schema it replaced did.
 */
import { describe, expect, it } from 'vitest';
import { choiceSearch } from '../../src/client/features/bi/bi-choices.ts';

describe('choiceSearch (the /bi address)', () => {
  it('keeps a view the explorer can answer', () => {
    expect(choiceSearch({ measure: 'DISCOUNTS', dimension1: 'SELLER', comparison: 'PREVIOUS' })).toEqual({
      measure: 'DISCOUNTS',
      dimension1: 'SELLER',
      comparison: 'PREVIOUS',
    });
    expect(choiceSearch({ measure: 'NET', dimension1: 'SITE', dimension2: 'HOUR' })).toEqual({
      measure: 'NET',
      dimension1: 'SITE',
      dimension2: 'HOUR',
    });
  });

  it.each([
    ['no measure', { dimension1: 'SITE' }],
    ['an unknown measure', { measure: 'MARGIN' }],
    ['an unknown dimension', { measure: 'NET', dimension1: 'COUNTRY' }],
    ['an unknown comparison', { measure: 'NET', comparison: 'LAST_DECADE' }],
    ['a dimension given as a number', { measure: 'NET', dimension1: 3 }],
    ['a pair no aggregate holds (covers by family)', { measure: 'COVERS', dimension1: 'FAMILY' }],
    ['the same dimension twice', { measure: 'NET', dimension1: 'SITE', dimension2: 'SITE' }],
  ])('drops %s whole', (_what, search) => {
    expect(choiceSearch(search)).toEqual({});
  });
});
