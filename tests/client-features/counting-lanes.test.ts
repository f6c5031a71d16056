/**
 * The replay lanes the counting feature declares for its writes (features/counting/save-counts.ts):
 * writes of the same drawer, the same safe or the same site's receipts share a lane (sent one
 * after the other, oldest first); others may be in flight together.
 */
import { describe, expect, it } from 'vitest';
import { countingLane } from '../../src/client/features/counting/save-counts.ts';

describe('counting replay lanes', () => {
  it('puts writes of the same drawer, safe or site’s receipts in one lane', () => {
    const date = '2026-11-22';
    expect(countingLane('cashCount', 3, date, 1)).toBe(countingLane('cashCount', 3, date, 1));
    expect(countingLane('cashCount', 3, date, 1)).not.toBe(countingLane('cashCount', 3, date, 2));
    expect(countingLane('safeCount', 3, date)).not.toBe(countingLane('safeCount', 3, '2026-11-23'));
    expect(countingLane('safeCount', 3, date)).not.toBe(countingLane('receipt', 3, date));
    expect(countingLane('receipt', 3, date)).not.toBe(countingLane('receipt', 4, date));
  });

  it('builds the same lane strings the outbox built from the summary before features declared them', () => {
    expect(countingLane('cashCount', 3, '2026-11-22', 1)).toBe('cash|3|2026-11-22|1');
    expect(countingLane('safeCount', 3, '2026-11-22')).toBe('safe|3|2026-11-22');
    expect(countingLane('receipt', 3, '2026-11-22')).toBe('receipt|3|2026-11-22');
  });
});
