/**
 * Checks that fr, en and de hold the same keys and that each message is valid ICU with the same
 * arguments in every language. Exit 1 with the differences otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

const dir = path.join(import.meta.dirname, '..', 'i18n');
const load = (l: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, `${l}.json`), 'utf8')) as Record<string, string>;
const cats = { fr: load('fr'), en: load('en'), de: load('de') };
const problems: string[] = [];

function args(ast: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of ast) {
    if (
      el.type === TYPE.argument ||
      el.type === TYPE.number ||
      el.type === TYPE.date ||
      el.type === TYPE.time
    )
      out.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      out.add(el.value);
      for (const o of Object.values(el.options)) args(o.value, out);
    }
    if (el.type === TYPE.tag) args(el.children, out);
  }
  return out;
}

const keys = new Set([...Object.keys(cats.fr), ...Object.keys(cats.en), ...Object.keys(cats.de)]);
for (const key of keys) {
  let ref: string | undefined;
  for (const [l, cat] of Object.entries(cats)) {
    const msg = cat[key];
    if (msg === undefined) {
      problems.push(`${l}.json lacks "${key}"`);
      continue;
    }
    try {
      const a = [...args(parse(msg))].sort().join(',');
      if (ref === undefined) ref = a;
      else if (a !== ref) problems.push(`"${key}": ${l} uses arguments {${a}}, fr uses {${ref}}`);
    } catch (e) {
      problems.push(`${l}.json "${key}": invalid ICU message (${(e as Error).message})`);
    }
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`i18n: ${keys.size} keys, same in fr, en and de`);
