/**
 * The outbox is generic (issue #16, DESIGN.md §7): a feature declares its local table and its
 * replay lane when it queues a write, so no file of the outbox, its local database or the service
 * worker names a domain of the app. What imports cannot show is held here, on their code lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
/** Words of the app's domains (a "DiscardTicket" is the outbox's own confirmation, not a sales ticket). */
const DOMAIN_WORDS = /\b\w*(cash|safe|receipt|comptage|coffre|recu|favori|report|rapport|vente)\w*/i;

/** The code lines (comments left out) of every `.ts` file under `dir`, with where they are. */
function codeLines(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(root, dir, f), 'utf8')
        .split('\n')
        .map((text, i) => ({ where: `${dir}/${f}:${i + 1}`, text }))
        .filter(({ text }) => !/^\s*(\/\/|\/\*|\*)/.test(text)),
    )
    .map(({ where, text }) => `${where}: ${text.trim()}`);
}

describe('the outbox and the service worker', () => {
  for (const dir of ['src/client/lib/outbox', 'sw']) {
    it(`${dir} names no domain of the app in its code`, () => {
      const lines = codeLines(dir);
      expect(lines.length).toBeGreaterThan(20);
      expect(lines.filter((l) => DOMAIN_WORDS.test(l.slice(l.indexOf(': ') + 2)))).toEqual([]);
    });
  }

  it('the check sees a domain name', () => {
    expect(DOMAIN_WORDS.test("const table = 'cashCounts';")).toBe(true);
    expect(DOMAIN_WORDS.test('if (path === "coffre") return true;')).toBe(true);
    expect(DOMAIN_WORDS.test('await db.transaction("rw", db.outbox, db.localRecords, async () => {')).toBe(
      false,
    );
  });
});
