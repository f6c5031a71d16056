/**
 * Budget of issue #2 §7: the JavaScript the login route (`/`) loads before it can be used, gzip,
 * at most 150 kB. Read from a production build (`vite build` with `build.manifest: true`):
 * the entry of `index.html`, every chunk it imports statically (transitively), the login route's
 * lazily split component chunk and its static imports, and the French catalogue that main.tsx
 * loads before the first render (the default language). Dynamic imports loaded later (other
 * routes, other languages, workbox-window after the first render) are not counted.
 *
 * Run alone: `npx vite build && npx node bench/bundle.ts [distDir]`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Budget of issue #2 §7, in bytes (150 kB). */
export const LOGIN_BUDGET_BYTES = 150 * 1000;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type ViteManifest = Record<string, ManifestChunk>;

/** Manifest keys of what the login route needs besides the entry. */
const LOGIN_ROUTE_KEY = /(^|\/)src\/client\/routes\/index\.tsx\?tsr-split=component$/;
const DEFAULT_CATALOGUE_KEY = /(^|\/)i18n\/fr\.json(\.compiled\.js)?$/;

/** `key` and every chunk it imports statically, transitively. */
function withStaticImports(manifest: ViteManifest, key: string, into: Set<string>): void {
  if (into.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`vite manifest has no chunk "${key}"`);
  into.add(key);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, into);
}

/**
 * Sums the gzip size (level 9, bytes) of the login route's initial JavaScript in `distDir`.
 * Throws when the build or its manifest is missing, or when the login route chunk cannot be found.
 */
export async function benchBundle(distDir: string): Promise<{
  name: string;
  loginInitialJsGzipBytes: number;
  budgetBytes: number;
  ratio: number;
  files: string[];
}> {
  const manifest = JSON.parse(
    await fs.readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as ViteManifest;
  const html = await fs.readFile(path.join(distDir, 'index.html'), 'utf8');
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry && k.endsWith('index.html'));
  if (!entryKey) throw new Error('vite manifest has no index.html entry');
  const entryFile = manifest[entryKey]!.file;
  if (!html.includes(entryFile))
    throw new Error(`dist/index.html does not load the manifest's entry ${entryFile}`);

  const keys = new Set<string>();
  withStaticImports(manifest, entryKey, keys);
  const loginKey = Object.keys(manifest).find((k) => LOGIN_ROUTE_KEY.test(k));
  if (!loginKey)
    throw new Error(
      'vite manifest has no split chunk for src/client/routes/index.tsx (autoCodeSplitting off?)',
    );
  withStaticImports(manifest, loginKey, keys);
  const catalogueKey = Object.keys(manifest).find((k) => DEFAULT_CATALOGUE_KEY.test(k));
  if (catalogueKey) withStaticImports(manifest, catalogueKey, keys);

  const files = [...new Set([...keys].map((k) => manifest[k]!.file))].filter((f) => f.endsWith('.js')).sort();
  let total = 0;
  for (const file of files) {
    total += gzipSync(await fs.readFile(path.join(distDir, file)), { level: 9 }).length;
  }
  return {
    name: 'login route initial JavaScript (gzip)',
    loginInitialJsGzipBytes: total,
    budgetBytes: LOGIN_BUDGET_BYTES,
    ratio: total / LOGIN_BUDGET_BYTES,
    files,
  };
}

if (import.meta.main) {
  const distDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const r = await benchBundle(distDir);
  for (const f of r.files) console.log(`  ${f}`);
  console.log(
    `${r.name}: ${(r.loginInitialJsGzipBytes / 1000).toFixed(1)} kB of ${r.budgetBytes / 1000} kB budget (ratio ${r.ratio.toFixed(2)})`,
  );
  if (r.ratio > 1) process.exitCode = 1;
}
