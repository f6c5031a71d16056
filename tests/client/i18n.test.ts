// @vitest-environment happy-dom
/**
 * Languages (SPEC.md §1, §3, §4, §9): French by default, the choice kept in IndexedDB, one
 * catalogue loaded at a time, `<html lang>` following; the three catalogues hold the same keys and
 * every message id the shell uses exists.
 */
import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { del, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const catalogue = (l: string) =>
  JSON.parse(fs.readFileSync(path.join(root, 'i18n', `${l}.json`), 'utf8')) as Record<string, string>;

/** A fresh copy of lib/i18n, as after a page reload (nothing loaded yet). */
async function reloadI18n() {
  vi.resetModules();
  return import('../../src/client/lib/i18n.tsx');
}

beforeEach(async () => {
  const { LANGUAGE_KEY } = await reloadI18n();
  await del(LANGUAGE_KEY);
  document.documentElement.lang = '';
});

describe('language', () => {
  it('is French when none is stored, and only the French catalogue is loaded', async () => {
    const i18n = await reloadI18n();
    expect(await i18n.initLanguage()).toBe('fr');
    expect(i18n.loadedLanguages()).toEqual(['fr']);
    expect(i18n.i18nState.messages?.['login.submit']).toBe(catalogue('fr')['login.submit']);
    expect(document.documentElement.lang).toBe('fr');
  });

  it('is kept in IndexedDB when chosen, loads only that catalogue, and sets <html lang>', async () => {
    const i18n = await reloadI18n();
    await i18n.initLanguage();
    await i18n.setLanguage('de');
    expect(await get(i18n.LANGUAGE_KEY)).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18n.i18nState.messages?.['login.submit']).toBe(catalogue('de')['login.submit']);
    expect(i18n.loadedLanguages().sort()).toEqual(['de', 'fr']);

    const reloaded = await reloadI18n();
    expect(await reloaded.initLanguage()).toBe('de');
    expect(reloaded.loadedLanguages()).toEqual(['de']);
  });

  it('falls back to French when the stored value is not a language we offer', async () => {
    const i18n = await reloadI18n();
    await set(i18n.LANGUAGE_KEY, 'xx');
    expect(await i18n.initLanguage()).toBe('fr');
    expect(i18n.loadedLanguages()).toEqual(['fr']);
  });
});

describe('catalogues', () => {
  it('hold the same keys in fr, en and de', () => {
    const keys = (l: string) => Object.keys(catalogue(l)).sort();
    expect(keys('en')).toEqual(keys('fr'));
    expect(keys('de')).toEqual(keys('fr'));
  });

  it('pass scripts/i18n-check.ts (same keys, valid ICU, same arguments)', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'i18n-check.ts')], {
      encoding: 'utf8',
    });
    expect(run.stderr.replace(/npm warn.*\n?/g, '')).toBe('');
    expect(run.status).toBe(0);
  });

  it('contain every message id written in the shell (app, routes, lib) and every notification code', async () => {
    const fr = catalogue('fr');
    const files = ['src/client/app', 'src/client/routes', 'src/client/lib', 'src/client/ui'].flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .map((f) => path.join(root, dir, f)),
    );
    const ids = new Set<string>();
    for (const file of files.filter((f) => /\.tsx?$/.test(f))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /\b(?:id|messageId)[=:]\s*["'`]((?:app|login|nav|notFound|pwa)\.[\w.]+)["'`]/g,
      ))
        ids.add(m[1]!);
    }
    for (const l of ['fr', 'en', 'de']) ids.add(`app.language.${l}`);
    expect(ids.size).toBeGreaterThan(20);
    expect([...ids].filter((id) => !(id in fr))).toEqual([]);

    const { ERROR_CODES, SUCCESS_CODES } = await import('../../src/contract/errors.ts');
    const missing = [
      ...ERROR_CODES.map((c) => `error.${c}`),
      ...SUCCESS_CODES.map((c) => `success.${c}`),
    ].filter((id) => !(id in fr));
    expect(missing).toEqual([]);
  });
});

describe('the later part of the catalogue (signed-in screens)', () => {
  it('is fetched by prefetchFullCatalogue without being shown, and shown by ensureFullCatalogue', async () => {
    const i18n = await reloadI18n();
    await i18n.initLanguage();
    const start = i18n.i18nState.messages;
    expect(start?.['home.title']).toBeUndefined();

    await i18n.prefetchFullCatalogue();
    // The login keeps its start part: nothing changed, so nothing is drawn again.
    expect(i18n.i18nState.messages).toBe(start);

    await i18n.ensureFullCatalogue();
    expect(i18n.i18nState.messages?.['home.title']).toBe(catalogue('fr')['home.title']);
    expect(i18n.i18nState.messages?.['login.submit']).toBe(catalogue('fr')['login.submit']);
  });

  it('is held as is, not deep-proxied and copied into every snapshot by valtio', async () => {
    const i18n = await reloadI18n();
    const { snapshot } = await import('valtio');
    await i18n.initLanguage();
    await i18n.ensureFullCatalogue();
    expect(snapshot(i18n.i18nState).messages).toBe(i18n.i18nState.messages);
  });
});
