/**
 * What the header's sync badge claims (issue #3 point 5): never "synced" before the outbox was
 * read, and the most urgent state first.
 */
import { describe, expect, it } from 'vitest';
import { type SyncState, summarise } from '../../src/client/features/sync/sync-state.ts';

const state = (s: Partial<SyncState>): SyncState => ({
  loaded: true,
  online: true,
  waiting: 0,
  sending: 0,
  needsAttention: 0,
  lastSyncedAt: null,
  ...s,
});

describe('sync badge summary', () => {
  it('claims nothing before the outbox was read', () => {
    expect(summarise(state({ loaded: false }), false)).toBe('checking');
    expect(summarise(state({ loaded: false, online: false }), false)).toBe('offline');
  });

  it('puts needs attention first, then offline, sending, waiting, and synced only when nothing is left', () => {
    expect(summarise(state({ needsAttention: 1, online: false, waiting: 3 }), true)).toBe('needsAttention');
    expect(summarise(state({ online: false, waiting: 3 }), false)).toBe('offline');
    expect(summarise(state({ sending: 1 }), false)).toBe('sending');
    expect(summarise(state({ waiting: 2 }), true)).toBe('sending');
    expect(summarise(state({ waiting: 2 }), false)).toBe('waiting');
    expect(summarise(state({}), false)).toBe('synced');
  });
});
