/**
 * The /config/messages form's model (features/messages/message-draft.ts): what a draft sends, what
 * it refuses before any call, and where a refusal of the server shows.
 */
import { describe, expect, it } from 'vitest';
import { AdminMessageSchema } from '../../src/contract/administration.ts';
import {
  checkDraft,
  draftOf,
  fieldErrorOf,
  todaysSpan,
} from '../../src/client/features/messages/message-draft.ts';
import { ApiFailure } from '../../src/client/lib/http.ts';

const TODAY = { from: '2026-06-15', to: '2026-06-15' };

describe("a message's today", () => {
  // 23:30 UTC on 7 December: already the 8th in Paris, still the 7th in New York and in UTC.
  const nearMidnight = new Date('2026-12-07T23:30:00Z');

  it("is the sites' calendar date, not the browser's", () => {
    expect(todaysSpan(['Europe/Paris'], nearMidnight)).toEqual({ from: '2026-12-08', to: '2026-12-08' });
    expect(todaysSpan(['America/New_York', 'America/New_York'], nearMidnight)).toEqual({
      from: '2026-12-07',
      to: '2026-12-07',
    });
  });

  it('spans the earliest to the latest today when the sites are in several zones', () => {
    expect(todaysSpan(['Europe/Paris', 'America/New_York', 'Europe/London'], nearMidnight)).toEqual({
      from: '2026-12-07',
      to: '2026-12-08',
    });
  });

  it("is Paris's today with no site (the server's zone for a user without sites)", () => {
    expect(todaysSpan([], nearMidnight)).toEqual({ from: '2026-12-08', to: '2026-12-08' });
  });
});

describe('a message draft', () => {
  it('starts as an info message for today only, for everyone', () => {
    expect(draftOf(null, TODAY)).toEqual({
      texts: { fr: '', en: '', de: '' },
      severity: 'info',
      fromDate: '2026-06-15',
      toDate: '2026-06-15',
      restaurantIds: [],
      profileIds: [],
    });
  });

  it('sends the trimmed texts that are not empty, and its targets as numbers', () => {
    const edited = AdminMessageSchema.parse({
      id: 4,
      texts: { de: 'Hallo' },
      text: 'Hallo',
      severity: 'warning',
      fromDate: '2026-06-01',
      toDate: '2026-06-30',
      restaurantIds: [3, 7],
      profileIds: [2],
      createdAt: '2026-05-30T10:00:00.000Z',
    });
    const draft = draftOf(edited, TODAY);
    draft.texts.fr = '  Bonjour  ';
    expect(checkDraft(draft)).toEqual({
      ok: true,
      input: {
        texts: { fr: 'Bonjour', de: 'Hallo' },
        severity: 'warning',
        fromDate: '2026-06-01',
        toDate: '2026-06-30',
        restaurantIds: [3, 7],
        profileIds: [2],
      },
    });
  });

  it('refuses no text, a missing day and a last day before the first, each at its field', () => {
    const draft = { ...draftOf(null, TODAY), texts: { fr: ' ', en: '', de: '' } };
    expect(checkDraft(draft)).toEqual({ ok: false, errors: { texts: 'messages.error.texts' } });
    expect(checkDraft({ ...draft, texts: { fr: 'a', en: '', de: '' }, fromDate: null })).toEqual({
      ok: false,
      errors: { fromDate: 'messages.error.dateRequired' },
    });
    expect(checkDraft({ ...draft, texts: { fr: 'a', en: '', de: '' }, toDate: '2026-06-14' })).toEqual({
      ok: false,
      errors: { toDate: 'messages.error.toDate' },
    });
  });

  it("shows the server's InvalidField at the field it names, and anything else above the buttons", () => {
    expect(fieldErrorOf(new ApiFailure('InvalidField', 400, { field: 'restaurantIds', ids: [9] }))).toEqual({
      restaurantIds: 'messages.error.restaurantIds',
    });
    expect(fieldErrorOf(new ApiFailure('InvalidField', 400, { field: 'toDate' }))).toEqual({
      toDate: 'messages.error.toDate',
    });
    expect(fieldErrorOf(new ApiFailure('InvalidField', 400, { field: 'somethingElse' }))).toBeNull();
    expect(fieldErrorOf(new ApiFailure('Forbidden', 403))).toBeNull();
    expect(fieldErrorOf(new Error('boom'))).toBeNull();
  });
});
