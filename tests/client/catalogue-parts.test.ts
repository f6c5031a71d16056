/**
 * The catalogue's start part (lib/catalogue-parts.ts) must hold every message the login route,
 * the shell and the password-reset screens show before the later part is loaded: their files may
 * name no message id whose prefix is in LATER_PREFIXES. And the two parts together are the whole
 * catalogue, with each message in exactly one part.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { cataloguePart, LATER_PREFIXES } from '../../src/client/lib/catalogue-parts.ts';

const CLIENT = path.join(import.meta.dirname, '..', '..', 'src', 'client');
/** What shows before sign-in, and the shell around every screen. */
const BEFORE_SIGN_IN = [
  'app',
  'ui',
  'lib',
  'features/password-reset',
  'routes/index.tsx',
  'routes/[index].tsx',
  'routes/__root.tsx',
  'routes/-components/login-page.tsx',
  'routes/reinit.changePassword.tsx',
];

function sourceFiles(relative: string): string[] {
  const full = path.join(CLIENT, relative);
  if (fs.statSync(full).isFile()) return [full];
  return fs
    .readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(full, f));
}

/** Prefixes of the message ids a file names: `id="x.y"`, `id: 'x.y'`, `messageId: …`, `` `x.${…}` ``. */
function messagePrefixes(source: string): string[] {
  const literal = /\b(?:id|messageId|titleId|descriptionId)(?:=|:\s*)['"]([a-zA-Z]+)\./g;
  const template = /`([a-zA-Z]+)\.\$\{/g;
  return [...source.matchAll(literal), ...source.matchAll(template)].map((m) => m[1]!);
}

describe('catalogue parts', () => {
  it('the login route, the shell and the reset screens use only start-part messages', () => {
    const files = BEFORE_SIGN_IN.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(20);
    const offending = files.flatMap((file) =>
      messagePrefixes(fs.readFileSync(file, 'utf8'))
        .filter((p) => LATER_PREFIXES.has(p))
        .map((p) => `${path.relative(CLIENT, file)}: ${p}.*`),
    );
    expect(offending).toEqual([]);
  });

  it('sees a later-part id where one is named (the scan can fail)', () => {
    expect(messagePrefixes(`<FormattedMessage id="usersAdmin.title" />`)).toEqual(['usersAdmin']);
    expect(messagePrefixes("intl.formatMessage({ id: 'report.x' })")).toEqual(['report']);
  });

  it('puts each message in one part, the login and error messages at start, the screens later', () => {
    const ids = Object.keys(fr);
    const later = ids.filter((id) => cataloguePart(id) === 'later');
    const start = ids.filter((id) => cataloguePart(id) === 'start');
    expect(later.length + start.length).toBe(ids.length);
    expect(later.length).toBeGreaterThan(start.length);
    expect(cataloguePart('login.title')).toBe('start');
    expect(cataloguePart('error.badCredentials')).toBe('start');
    expect(cataloguePart('usersAdmin.title')).toBe('later');
    expect(cataloguePart('report')).toBe('later');
  });
});
