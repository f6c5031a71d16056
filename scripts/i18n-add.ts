/**
 * Adds messages to the three catalogues at once, so fr, en and de always hold the same keys.
 * Usage: node scripts/i18n-add.ts FRAGMENT.json
 * FRAGMENT.json: { "some.key": { "fr": "…", "en": "…", "de": "…" }, … }
 * Existing keys are overwritten; the catalogues stay sorted. Fails (changing nothing) when a
 * message lacks a language.
 */
import fs from 'node:fs';
import path from 'node:path';

const LANGS = ['fr', 'en', 'de'] as const;
const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/i18n-add.ts FRAGMENT.json');
  process.exit(2);
}
const fragment = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
for (const [key, texts] of Object.entries(fragment)) {
  for (const l of LANGS) {
    if (typeof texts[l] !== 'string' || texts[l] === '') {
      console.error(`${file}: "${key}" has no ${l} text; nothing was changed`);
      process.exit(1);
    }
  }
}
const dir = path.join(import.meta.dirname, '..', 'i18n');
for (const l of LANGS) {
  const p = path.join(dir, `${l}.json`);
  const cat = JSON.parse(fs.readFileSync(p, 'utf8')) as Record<string, string>;
  for (const [key, texts] of Object.entries(fragment)) cat[key] = texts[l]!;
  const sorted = Object.fromEntries(Object.entries(cat).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const tmp = `${p}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(sorted, null, 2)}\n`);
  fs.renameSync(tmp, p);
}
console.log(`added ${Object.keys(fragment).length} message(s) to ${LANGS.join(', ')}`);
