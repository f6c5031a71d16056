/**
 * The first paint's structure (decision 0026): index.html paints a language-neutral splash before
 * any script, which every first screen hides by being there; the build preloads the first
 * screen's chunks and asks the browser to compile the start's chunks eagerly; the compiled
 * catalogues reach valtio's state as refs, not deep proxies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IndexHtmlTransformContext, Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import { gunzipSync } from 'node:zlib';
import {
  COMPILE_HINT,
  firstScreenPreload,
  precompiledCatalogues,
  preloadedDependencies,
  startupChunkFiles,
  startupCompileHints,
} from '../../vite.config.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const html = fs.readFileSync(path.join(ROOT, 'index.html'), 'utf8');

/** The element of `html` opened by `open` (no nested element of the same tag). */
function element(open: string, tag: string): string {
  const start = html.indexOf(open);
  expect(start, `${open} in index.html`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf(`</${tag}>`, start) + tag.length + 3);
}

describe('index.html', () => {
  it('paints a splash after #root that names no language: only the app name, the same in fr, en and de', () => {
    expect(html.indexOf('<div id="root"></div>')).toBeGreaterThan(-1);
    expect(html.indexOf('class="app-splash"')).toBeGreaterThan(html.indexOf('<div id="root"></div>'));
    const splash = element('<div class="app-splash"', 'div');
    expect(splash).toContain('aria-hidden="true"');
    const text = splash
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    expect(text).toBe(fr['app.name']);
    expect([en['app.name'], de['app.name']]).toEqual([text, text]);
    // Drawn from the HTML itself: no request, works offline (CSP img-src allows data:).
    expect(splash).toMatch(/<img src="data:image\/svg\+xml,[^"]+" width="\d+" height="\d+" alt="" \/>/);
  });

  it("has no inline script (CSP script-src self): zod's settings, then the module entry", () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual([
      '<script defer src="/zod-config.js">',
      '<script type="module" src="/src/client/main.tsx">',
    ]);
    // In the head: the build puts the module entry at the end of the head, and deferred scripts run
    // in document order, so zod is jitless before any chunk builds a schema (e2e/csp.spec.ts).
    expect(html.indexOf('/zod-config.js')).toBeLessThan(html.indexOf('</head>'));
    const config = fs.readFileSync(path.join(ROOT, 'public', 'zod-config.js'), 'utf8');
    expect(config).toContain('globalThis.__zod_globalConfig');
    expect(config).toContain('jitless: true');
  });

  it('hides the splash on every first screen: each renders a <main> or the screen-load message', () => {
    expect(html).toContain('body:has(#root main, #root .screen-load) .app-splash { display: none; }');
    for (const file of [
      'src/client/routes/-components/login-page.tsx',
      'src/client/routes/-components/authed-layout.tsx',
      'src/client/app/not-found.tsx',
      'src/client/app/route-error.tsx',
    ]) {
      expect(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).toMatch(/<main\b/);
    }
    expect(fs.readFileSync(path.join(ROOT, 'src/client/app/screen-load.tsx'), 'utf8')).toContain(
      'className="screen-load"',
    );
  });
});

type HtmlHandler = (html: string, context: IndexHtmlTransformContext) => unknown;
function htmlHandler(plugin: Plugin): HtmlHandler {
  const hook = plugin.transformIndexHtml as { handler: HtmlHandler };
  return hook.handler;
}

/** A bundle of chunks `{ fileName: [facadeModuleId, imports] }`, as Rollup hands it to the hook. */
function bundle(chunks: Record<string, [string | null, string[]]>): IndexHtmlTransformContext {
  return {
    path: '/index.html',
    filename: 'index.html',
    bundle: Object.fromEntries(
      Object.entries(chunks).map(([fileName, [facadeModuleId, imports]]) => [
        fileName,
        { type: 'chunk', fileName, facadeModuleId, imports },
      ]),
    ),
  } as unknown as IndexHtmlTransformContext;
}

describe('the first screen preload (vite.config.ts)', () => {
  const chunks = bundle({
    'assets/index-a.js': ['/r/index.html', ['assets/react-b.js']],
    'assets/react-b.js': [null, []],
    'assets/routes-c.js': ['/r/src/client/routes/index.tsx?tsr-split=component', ['assets/login-page-d.js']],
    'assets/login-page-d.js': [null, ['assets/react-b.js', 'assets/language-choice-e.js']],
    'assets/language-choice-e.js': [null, []],
    'assets/fr.json.start.compiled-f.js': ['/r/i18n/fr.json.start.compiled.js', ['assets/vanilla-g.js']],
    'assets/vanilla-g.js': [null, []],
    'assets/home-h.js': ['/r/src/client/routes/_authed/home.tsx?tsr-split=component', []],
  });
  const entryHtml =
    '<script type="module" src="/assets/index-a.js"></script><link rel="modulepreload" href="/assets/react-b.js">';

  it("preloads the login route's chunks and the French start catalogue with their imports, once each", () => {
    const tags = htmlHandler(firstScreenPreload())(entryHtml, chunks) as Array<{
      attrs: { href: string; rel: string };
    }>;
    expect(tags.map((t) => t.attrs.href).sort()).toEqual([
      '/assets/fr.json.start.compiled-f.js',
      '/assets/language-choice-e.js',
      '/assets/login-page-d.js',
      '/assets/routes-c.js',
      '/assets/vanilla-g.js',
    ]);
    expect(new Set(tags.map((t) => t.attrs.rel))).toEqual(new Set(['modulepreload']));
  });

  it('fails the build when a first-screen chunk is gone (a renamed route or catalogue)', () => {
    const withoutLogin = bundle({
      'assets/fr.json.start.compiled-f.js': ['/r/i18n/fr.json.start.compiled.js', []],
    });
    expect(() => htmlHandler(firstScreenPreload())(entryHtml, withoutLogin)).toThrow(
      /first screen's preload/,
    );
  });
});

describe("a dynamic import's preloaded dependencies (vite.config.ts)", () => {
  const deps = ['assets/home-a.css', 'assets/zod-b.js', 'assets/table-c.css', 'assets/react-aria-d.js'];

  it('are only its style sheets: the browser fetches its modules itself, without ~100 <link>s appended at start', () => {
    expect(preloadedDependencies('assets/home-e.js', deps, { hostType: 'js' })).toEqual([
      'assets/home-a.css',
      'assets/table-c.css',
    ]);
  });

  it("leave index.html's modulepreload links as the build makes them", () => {
    expect(preloadedDependencies('assets/index-f.js', deps, { hostType: 'html' })).toEqual(deps);
  });

  it('are wired into the build', async () => {
    const { default: config } = await import('../../vite.config.ts');
    const modulePreload = (config as { build?: { modulePreload?: unknown } }).build?.modulePreload;
    expect(modulePreload).toEqual({ resolveDependencies: preloadedDependencies });
  });
});

describe('the compiled catalogues (vite.config.ts)', () => {
  it('reach valtio state as refs: a snapshot holds the very objects, not deep copies', async () => {
    const plugin = precompiledCatalogues();
    const load = plugin.load as (this: unknown, id: string) => string;
    const code = load.call({ addWatchFile() {} }, path.join(ROOT, 'i18n', 'fr.json.start.compiled.js'));
    // The module imports valtio by name: point it at the file both it and this test load.
    const valtio = pathToFileURL(path.join(ROOT, 'node_modules', 'valtio', 'esm', 'vanilla.mjs')).href;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpt-catalogue-'));
    const file = path.join(dir, 'fr.start.mjs');
    fs.writeFileSync(file, code.replace("'valtio/vanilla'", JSON.stringify(valtio)));
    try {
      const { default: catalogue } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
        default: Record<string, unknown>;
      };
      const { proxy, snapshot } = (await import(
        /* @vite-ignore */ valtio
      )) as typeof import('valtio/vanilla');
      expect(catalogue['app.name']).toEqual([{ type: 0, value: fr['app.name'] }]);
      const state = proxy<{ messages: Record<string, unknown> | null }>({ messages: null });
      state.messages = catalogue;
      expect(snapshot(state).messages).toBe(catalogue);
      // The whole catalogue is a merged copy of both parts (lib/i18n.tsx): each message still a ref.
      state.messages = { ...catalogue };
      expect(snapshot(state).messages?.['app.name']).toBe(catalogue['app.name']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `startupCompileHints()`'s generateBundle handler, called as Vite would on `bundle`. */
async function generateBundle(bundle: Record<string, unknown>): Promise<void> {
  const hook = startupCompileHints().generateBundle as {
    order: string;
    handler: (this: unknown, options: unknown, bundle: unknown, isWrite: boolean) => Promise<void>;
  };
  expect(hook.order).toBe('post');
  await hook.handler.call({}, {}, bundle, true);
}

describe("the start's compile hint (vite.config.ts)", () => {
  const graph = [
    {
      fileName: 'assets/index-a.js',
      isEntry: true,
      facadeModuleId: '/r/index.html',
      imports: ['assets/react-b.js'],
    },
    { fileName: 'assets/react-b.js', isEntry: false, facadeModuleId: null, imports: [] },
    {
      fileName: 'assets/routes-c.js',
      isEntry: false,
      facadeModuleId: '/r/src/client/routes/index.tsx?tsr-split=component',
      imports: ['assets/login-page-d.js'],
    },
    {
      fileName: 'assets/login-page-d.js',
      isEntry: false,
      facadeModuleId: null,
      imports: ['assets/react-b.js'],
    },
    {
      fileName: 'assets/fr.json.start.compiled-f.js',
      isEntry: false,
      facadeModuleId: '/r/i18n/fr.json.start.compiled.js',
      imports: [],
    },
    {
      fileName: 'assets/home-h.js',
      isEntry: false,
      facadeModuleId: '/r/src/client/routes/_authed/home.tsx?tsr-split=component',
      imports: ['assets/dexie-i.js'],
    },
    { fileName: 'assets/dexie-i.js', isEntry: false, facadeModuleId: null, imports: [] },
  ];

  it("names the entry, the first screen's chunks and their imports, not a later screen's", () => {
    expect([...startupChunkFiles(graph)].sort()).toEqual([
      'assets/fr.json.start.compiled-f.js',
      'assets/index-a.js',
      'assets/login-page-d.js',
      'assets/react-b.js',
      'assets/routes-c.js',
    ]);
  });

  it("opens those chunks with the hint (before Vite's first line), once, and makes their .gz and source map again", async () => {
    const bundle: Record<string, unknown> = {};
    for (const chunk of graph)
      bundle[chunk.fileName] = {
        type: 'chunk',
        ...chunk,
        code: `const __vite__mapDeps=0;\n// ${chunk.fileName}\n`,
      };
    bundle['assets/index-a.js.map'] = {
      type: 'asset',
      fileName: 'assets/index-a.js.map',
      source: JSON.stringify({ version: 3, mappings: 'AAAA' }),
    };
    bundle['assets/index-a.js.gz'] = {
      type: 'asset',
      fileName: 'assets/index-a.js.gz',
      source: new Uint8Array(),
    };
    bundle['assets/home-h.js.gz'] = {
      type: 'asset',
      fileName: 'assets/home-h.js.gz',
      source: new Uint8Array([1]),
    };
    await generateBundle(bundle);
    await generateBundle(bundle);
    const code = (file: string) => (bundle[file] as { code: string }).code;
    expect(code('assets/index-a.js')).toBe(
      `${COMPILE_HINT}\nconst __vite__mapDeps=0;\n// assets/index-a.js\n`,
    );
    expect(code('assets/react-b.js').startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    expect(code('assets/home-h.js')).toBe('const __vite__mapDeps=0;\n// assets/home-h.js\n');
    expect(code('assets/dexie-i.js').includes(COMPILE_HINT)).toBe(false);
    expect(JSON.parse((bundle['assets/index-a.js.map'] as { source: string }).source)).toEqual({
      version: 3,
      mappings: ';AAAA',
    });
    const gz = (file: string) => (bundle[file] as { source: Uint8Array }).source;
    expect(gunzipSync(gz('assets/index-a.js.gz')).toString()).toBe(code('assets/index-a.js'));
    expect(gz('assets/home-h.js.gz')).toEqual(new Uint8Array([1]));
  });

  it('fails the build when the first screen has no chunk', () => {
    expect(() => startupChunkFiles(graph.filter((c) => !c.facadeModuleId?.includes('routes/index')))).toThrow(
      /first screen's preload/,
    );
  });

  it('is wired into the build', async () => {
    const { default: config } = await import('../../vite.config.ts');
    const names = ((config as { plugins?: unknown[] }).plugins ?? [])
      .flat()
      .map((p) => (p as { name?: string } | null)?.name);
    expect(names).toContain('comptoir:startup-compile-hints');
  });
});
