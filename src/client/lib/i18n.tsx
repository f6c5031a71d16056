/**
 * Languages of the interface (SPEC.md §1, §9: fr default, en, de). The choice is kept in
 * idb-keyval (SPEC.md §3 "the language choice is stored locally"); French when none is stored
 * (SPEC.md §4). Each catalogue `i18n/<lang>.json` is its own pair of chunks, loaded on demand, so
 * the first load carries only the active language, and of it only the `start` part
 * (lib/catalogue-parts.ts); the `later` part is fetched after the first paint (shown only once a
 * signed-in screen needs it) and awaited before a signed-in screen shows ({@link ensureFullCatalogue}).
 * `<html lang>` follows the choice.
 */
import { get, set } from 'idb-keyval';
import { type ReactNode, useCallback } from 'react';
import { IntlProvider } from 'react-intl';
import { proxy, ref, useSnapshot } from 'valtio';
import type { Language } from '../../contract/reports.ts';
import type { CataloguePart } from './catalogue-parts.ts';

/** The languages offered, French first (the default and the source language). */
export const LANGUAGES = ['fr', 'en', 'de'] as const satisfies readonly Language[];
export const DEFAULT_LANGUAGE: Language = 'fr';

/** idb-keyval key of the chosen language. */
export const LANGUAGE_KEY = 'comptoir.language';

/** A catalogue: message id → ICU message. */
export type Catalogue = Record<string, string>;

// One dynamic import per language and part, written out so the bundler makes one chunk each.
const loaders: Record<Language, Record<CataloguePart, () => Promise<{ default: Catalogue }>>> = {
  fr: {
    start: () => import('../../../i18n/fr.json?part=start'),
    later: () => import('../../../i18n/fr.json?part=later'),
  },
  en: {
    start: () => import('../../../i18n/en.json?part=start'),
    later: () => import('../../../i18n/en.json?part=later'),
  },
  de: {
    start: () => import('../../../i18n/de.json?part=start'),
    later: () => import('../../../i18n/de.json?part=later'),
  },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** `language` is active once its catalogue is in `messages`. */
export const i18nState = proxy<{ language: Language; messages: Catalogue | null }>({
  language: DEFAULT_LANGUAGE,
  messages: null,
});

/** Start parts loaded, by language. */
const loaded = new Map<Language, Catalogue>();
/** Whole catalogues (start and later parts merged), by language. */
const complete = new Map<Language, Catalogue>();

/** Loads (once) the start part of `language`'s catalogue. Rejects when the chunk cannot be fetched. */
async function loadStart(language: Language): Promise<Catalogue> {
  const cached = loaded.get(language);
  if (cached) return cached;
  const { default: catalogue } = await loaders[language].start();
  loaded.set(language, catalogue);
  return catalogue;
}

/**
 * Loads (once) the whole catalogue of `language`, both parts merged. Rejects when a chunk cannot
 * be fetched.
 */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  const cached = complete.get(language);
  if (cached) return cached;
  const [start, { default: later }] = await Promise.all([loadStart(language), loaders[language].later()]);
  // A ref, as each part is (vite.config.ts): the merged catalogue is immutable data that valtio
  // would otherwise proxy key by key and copy into every snapshot of i18nState.
  const whole = ref({ ...start, ...later });
  complete.set(language, whole);
  return whole;
}

/** The languages whose catalogue (at least its start part) has been loaded so far (to check laziness). */
export function loadedLanguages(): Language[] {
  return [...loaded.keys()];
}

/**
 * Fetches and parses (once) the active language's whole catalogue without showing it: the screen
 * on the page (the login) keeps its start part and is not drawn again, so its first seconds carry
 * no extra render (Lighthouse's total blocking time, decision 0026). A signed-in screen then finds
 * the catalogue ready ({@link ensureFullCatalogue}). Rejects when the chunk cannot be fetched.
 */
export async function prefetchFullCatalogue(): Promise<void> {
  await loadCatalogue(i18nState.language);
}

/**
 * Makes the active language's whole catalogue the one shown (loading its later part once).
 * Awaited before a signed-in screen renders (routes/_authed.tsx), and started by main.tsx before
 * the first render when a session is restored. Signed out, main.tsx only prefetches it
 * ({@link prefetchFullCatalogue}) so sign-in seldom waits. Rejects when the chunk cannot be fetched.
 */
export async function ensureFullCatalogue(): Promise<void> {
  const language = i18nState.language;
  const whole = await loadCatalogue(language);
  if (i18nState.language === language && i18nState.messages !== whole) applyLanguage(language, whole);
}

function applyLanguage(language: Language, messages: Catalogue): void {
  i18nState.language = language;
  i18nState.messages = messages;
  if (globalThis.document) document.documentElement.lang = language;
}

/**
 * Reads the stored language (French when none or an unknown one is stored) and loads its
 * catalogue; falls back to French when that catalogue cannot be loaded. Called once at start.
 */
export async function initLanguage(): Promise<Language> {
  let stored: unknown;
  try {
    stored = await get(LANGUAGE_KEY);
  } catch {
    stored = undefined;
  }
  const wanted = isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  try {
    applyLanguage(wanted, await loadStart(wanted));
    return wanted;
  } catch (e) {
    if (wanted === DEFAULT_LANGUAGE) throw e;
    applyLanguage(DEFAULT_LANGUAGE, await loadStart(DEFAULT_LANGUAGE));
    return DEFAULT_LANGUAGE;
  }
}

/** Switches to `language` once its catalogue is loaded, and stores the choice. */
export async function setLanguage(language: Language): Promise<void> {
  const messages = await loadCatalogue(language);
  applyLanguage(language, messages);
  try {
    await set(LANGUAGE_KEY, language);
  } catch {
    // Not stored: the choice holds until the page is closed.
  }
}

/** `[language, setLanguage]` for components (the header and login language choice). */
export function useLanguage(): [Language, (language: Language) => Promise<void>] {
  const { language } = useSnapshot(i18nState);
  const change = useCallback((l: Language) => setLanguage(l), []);
  return [language, change];
}

/**
 * Provides react-intl for the active language. Renders nothing until a catalogue is loaded
 * (main.tsx loads it before the first render, so that is only a safety net).
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const { language, messages } = useSnapshot(i18nState);
  if (!messages) return null;
  return (
    <IntlProvider locale={language} defaultLocale={DEFAULT_LANGUAGE} messages={messages as Catalogue}>
      {children}
    </IntlProvider>
  );
}
