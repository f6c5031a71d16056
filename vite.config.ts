/**
 * Build of the client (DESIGN.md §3): TanStack Router's file-based routes with automatic code
 * splitting (its plugin must run before React's), React, and the PWA (vite-plugin-pwa with our
 * own service worker `sw/sw.ts`, injectManifest). The service worker is off in dev (`vite`),
 * where `/api` is proxied to a running server (`COMPTOIR_API`, default http://127.0.0.1:8080).
 * `build.manifest` lets `bench/bundle.ts` measure what the login route loads.
 *
 * Messages: the catalogues `i18n/<lang>.json` stay ICU strings in the repository (the server and
 * scripts/i18n-check read them so), but the client gets them compiled to react-intl's AST at build
 * time, so the ICU parser is left out of the bundle (aliased to its no-parser build). Consequence:
 * client code must not pass `defaultMessage` strings to react-intl — every message comes from the
 * catalogues.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { parse } from '@formatjs/icu-messageformat-parser';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { cataloguePart } from './src/client/lib/catalogue-parts.ts';

const CATALOGUE = /[\\/]i18n[\\/](fr|en|de)\.json(?:\?part=(start|later))?$/;
const COMPILED_SUFFIX = '.compiled.js';
const COMPILED = /^(.*)\.(start|later|all)\.compiled\.js$/;

/**
 * Serves `i18n/<lang>.json` to the client as `{ id: MessageFormatElement[] }` (parsed here, not in
 * the browser); `i18n/<lang>.json?part=start|later` as the messages of that part only
 * (src/client/lib/catalogue-parts.ts).
 */
export function precompiledCatalogues(): Plugin {
  return {
    name: 'comptoir:precompiled-catalogues',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const match = CATALOGUE.exec(source);
      if (!match) return null;
      const bare = source.replace(/\?.*$/, '');
      const resolved = await this.resolve(bare, importer, { ...options, skipSelf: true });
      // A new id not ending in .json, so Vite's JSON plugin leaves it to us.
      return resolved ? `${resolved.id}.${match[2] ?? 'all'}${COMPILED_SUFFIX}` : null;
    },
    load(id) {
      const match = COMPILED.exec(id);
      if (!match) return null;
      const [, file, part] = match as unknown as [string, string, 'start' | 'later' | 'all'];
      this.addWatchFile(file);
      const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(catalogue)
          .filter(([key]) => part === 'all' || cataloguePart(key) === part)
          .map(([key, message]) => [key, parse(message)]),
      );
      // The catalogue is immutable data held in valtio state (lib/i18n.tsx's i18nState): marked
      // as refs, the object and each message's AST are kept as they are instead of deep-proxied
      // and copied into every snapshot, which cost the login ~60 ms of main thread and /home far
      // more with the later part (decision 0026).
      return [
        "import { ref } from 'valtio/vanilla';",
        `const catalogue = JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`,
        'for (const id in catalogue) ref(catalogue[id]);',
        'export default ref(catalogue);',
      ].join('\n');
    },
  };
}

/** Modules of the first screen a visitor gets, fetched by the entry only once it has run. */
const FIRST_SCREEN_MODULES = [
  // The login route's split component (routes/index.tsx) and what it imports.
  /[\\/]src[\\/]client[\\/]routes[\\/]index\.tsx\?tsr-split=component$/,
  // The start part of the default language's catalogue, awaited by main.tsx before the first render.
  /[\\/]i18n[\\/]fr\.json\.start\.compiled\.js$/,
];

/**
 * Adds `<link rel="modulepreload">` to index.html for the chunks of {@link FIRST_SCREEN_MODULES}
 * and their static imports, so the browser fetches them with the entry instead of after it
 * (three round trips fewer before the login paints; decision 0026). Vite preloads only the
 * entry's static imports by itself.
 */
/**
 * Which of a chunk's dependencies Vite's loader adds as `<link>`s before importing it: all of them
 * for index.html (the entry's modulepreload links), only the style sheets for a dynamic import. The
 * browser fetches a module's own imports as soon as it parses it, and (with the service worker's
 * precache) at no network cost; appending the ~100 links of /home's route chunks, on the other
 * hand, was half of a 650 ms (4× throttled) task at its start (decision 0026). Style sheets stay:
 * only this loader inserts them.
 */
export function preloadedDependencies(
  _filename: string,
  deps: string[],
  context: { hostType: 'html' | 'js' },
): string[] {
  return context.hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css'));
}

/** A chunk as the graph helpers below read it (Rolldown's output chunk). */
type GraphChunk = {
  fileName: string;
  imports: readonly string[];
  isEntry?: boolean;
  facadeModuleId: string | null;
};

/** Adds `file` and every chunk it imports statically, directly or not, to `into` (skipping `skip`). */
function addWithImports(
  byFile: ReadonlyMap<string, GraphChunk>,
  file: string,
  into: Set<string>,
  skip: (file: string) => boolean = () => false,
): void {
  if (into.has(file) || skip(file)) return;
  into.add(file);
  for (const imported of byFile.get(file)?.imports ?? []) addWithImports(byFile, imported, into, skip);
}

/**
 * The chunk of each of {@link FIRST_SCREEN_MODULES}.
 * @throws Error when one has no chunk (a renamed route or catalogue): the preload is out of date.
 */
function firstScreenChunks(chunks: readonly GraphChunk[]): GraphChunk[] {
  return FIRST_SCREEN_MODULES.map((pattern) => {
    const chunk = chunks.find((c) => c.facadeModuleId && pattern.test(c.facadeModuleId));
    if (!chunk) throw new Error(`no chunk for ${pattern}: the first screen's preload is out of date`);
    return chunk;
  });
}

export function firstScreenPreload(): Plugin {
  return {
    name: 'comptoir:first-screen-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter((c) => c.type === 'chunk');
        const byFile = new Map<string, GraphChunk>(chunks.map((c) => [c.fileName, c]));
        const files = new Set<string>();
        const inHtml = (file: string) => html.includes(`/${file}"`);
        for (const chunk of firstScreenChunks(chunks)) addWithImports(byFile, chunk.fileName, files, inHtml);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * Chromium's per-file explicit compile hint (Chrome 136+; WICG "Explicit JavaScript Compile
 * Hints", file-based): at the top of a file, preceded by comments only, it asks the browser to
 * compile all the file's functions eagerly, on the thread that streams the script, rather than each
 * one on the main thread when first called. Other browsers ignore it.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The chunks every page load runs: the entry and the first screen's chunks
 * ({@link FIRST_SCREEN_MODULES}), each with its static imports — index.html's script and
 * modulepreload links.
 * @throws Error as {@link firstScreenChunks}.
 */
export function startupChunkFiles(chunks: readonly GraphChunk[]): Set<string> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const files = new Set<string>();
  for (const chunk of chunks) if (chunk.isEntry) addWithImports(byFile, chunk.fileName, files);
  for (const chunk of firstScreenChunks(chunks)) addWithImports(byFile, chunk.fileName, files);
  return files;
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** How the build's text files are compressed: brotli quality 11, gzip level 9 (see `compression` below). */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
const GZIP_OPTIONS = { level: 9 };

/**
 * Opens each of {@link startupChunkFiles} with {@link COMPILE_HINT} (decision 0026: compiling
 * React, the router and the first screen lazily, function by function on the main thread, was a
 * large part of the start's blocking time). Only those: compiling every function of chunks a page
 * may never run spends a phone's CPU and memory for nothing — hinting /home's chunks as well (50
 * more files) made /home's blocking time longer, not shorter.
 *
 * It runs after the other plugins' `generateBundle`, since Vite puts its `__vite__mapDeps` line at
 * the top of the entry there and the hint must come first; the `.br` and `.gz` copies that
 * vite-plugin-compression2 made in the manifest's `generateBundle` (before this hook) are then made
 * again from the final code, with the same settings. A source map, when built, gets the added line.
 */
export function startupCompileHints(): Plugin {
  return {
    name: 'comptoir:startup-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const recompressed: Promise<void>[] = [];
        for (const file of startupChunkFiles(chunks)) {
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk' || chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // Rolldown writes a built source map from this asset, not from `chunk.map`.
          const map = bundle[`${file}.map`];
          if (map?.type === 'asset') {
            const parsed = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
          const code = chunk.code;
          for (const [suffix, compress] of [
            ['.br', () => brotliCompress(code, BROTLI_OPTIONS)],
            ['.gz', () => gzip(code, GZIP_OPTIONS)],
          ] as const) {
            const copy = bundle[file + suffix];
            if (copy?.type !== 'asset') continue;
            recompressed.push(
              compress().then((bytes) => {
                copy.source = new Uint8Array(bytes);
              }),
            );
          }
        }
        await Promise.all(recompressed);
      },
    },
  };
}

const require = createRequire(import.meta.url);
const PARSER_WITHOUT_PARSE = path.join(
  path.dirname(require.resolve('@formatjs/icu-messageformat-parser')),
  'no-parser.js',
);

const THEME_COLOUR = '#1f4e5f';
const BACKGROUND_COLOUR = '#f6f4ef';

export default defineConfig({
  plugins: [
    precompiledCatalogues(),
    firstScreenPreload(),
    startupCompileHints(),
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders split too: a route's loader (and the query code it pulls) loads with the route, not at start.
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader'],
          ['component'],
          ['pendingComponent'],
          ['errorComponent'],
          ['notFoundComponent'],
        ],
      },
      routesDirectory: 'src/client/routes',
      generatedRouteTree: 'src/client/routeTree.gen.ts',
    }),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // Registered by src/client/app/service-worker.ts (workbox-window), after the first render.
      injectRegister: false,
      // The plugin adds the web manifest and the manifest's icons to the precache itself: the
      // glob leaves them out (no webmanifest, no icons/) so each file is listed once.
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,ico,svg}'],
        globIgnores: ['icons/**'],
      },
      manifest: {
        id: '/',
        name: 'Comptoir',
        short_name: 'Comptoir',
        description: 'Rapports, ventes et comptages de vos restaurants et magasins.',
        lang: 'fr',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOUR,
        background_color: BACKGROUND_COLOUR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
    // Every text file of the build also as .br (quality 11) and .gz (level 9), written once here:
    // the server sends them as they are (@fastify/static preCompressed), smaller than what it
    // could afford to compress per request, and without spending its CPU on them.
    compression({
      algorithms: [defineAlgorithm('brotliCompress', BROTLI_OPTIONS), defineAlgorithm('gzip', GZIP_OPTIONS)],
      include: /\.(js|css|html|svg|json|webmanifest)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: PARSER_WITHOUT_PARSE }],
  },
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { resolveDependencies: preloadedDependencies },
  },
  server: {
    proxy: {
      '/api': { target: process.env.COMPTOIR_API ?? 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
