/**
 * Budget of issue #2 §7: the JavaScript the login route (`/`) loads before it can be used, gzip,
 * at most 150 kB. Read from a production build (`vite build` with `build.manifest: true`):
 * the entry of `index.html`, every chunk it imports statically (transitively), the login route's
 * lazily split component chunk and its static imports, and the start part of the French catalogue
 * that main.tsx loads before the first render (the default language; src/client/lib/catalogue-parts.ts). Dynamic imports loaded later (other
 * routes, other languages, workbox-window after the first render) are not counted.
 *
 * Also what a browser accepting brotli downloads of the same files: the build's .br siblings
 * (checked to decompress to each file, so `npm test`'s budget step fails on a build without them).
 *
 * Run alone: `npx vite build && npx node bench/bundle.ts [distDir]`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib, { gzipSync } from 'node:zlib';

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

/** Smallest file the build writes .br and .gz siblings of (vite.config.ts `threshold`). */
const PRECOMPRESSED_FROM_BYTES = 1024;

/**
 * What the server sends of `file` (a path in `distDir`) to a browser accepting brotli, in bytes:
 * the build's own `.br` sibling, after checking that it and the `.gz` one decompress to the
 * file; for a file under {@link PRECOMPRESSED_FROM_BYTES}, which has none, the brotli of the
 * server's per-answer compression (quality 4, app.ts).
 * @throws Error when a file that should have its siblings lacks one or they do not match it.
 */
async function sentBrotliBytes(distDir: string, file: string): Promise<number> {
  const bytes = await fs.readFile(path.join(distDir, file));
  if (bytes.length < PRECOMPRESSED_FROM_BYTES) {
    return zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
  }
  const read = (suffix: string) =>
    fs.readFile(path.join(distDir, `${file}${suffix}`)).catch(() => {
      throw new Error(`${file} has no ${suffix} beside it: is vite.config.ts's compression plugin on?`);
    });
  const [br, gz] = await Promise.all([read('.br'), read('.gz')]);
  if (!zlib.brotliDecompressSync(br).equals(bytes)) throw new Error(`${file}.br is not ${file}`);
  if (!zlib.gunzipSync(gz).equals(bytes)) throw new Error(`${file}.gz is not ${file}`);
  return br.length;
}

/** Manifest keys of what the login route needs besides the entry. */
const LOGIN_ROUTE_KEY = /(^|\/)src\/client\/routes\/index\.tsx\?tsr-split=component$/;
const DEFAULT_CATALOGUE_KEY = /(^|\/)i18n\/fr\.json\.start\.compiled\.js$/;

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
  /** What a browser accepting brotli downloads of it (the build's .br files, see sentBrotliBytes). */
  loginInitialJsSentBrotliBytes: number;
  budgetBytes: number;
  ratio: number;
  files: string[];
  /** Files of it that hold zod (its `$ZodType` marker): none, or its schemas run at every start (decision 0026). */
  withZod: string[];
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
  if (!catalogueKey) throw new Error('vite manifest has no chunk for the start part of i18n/fr.json');
  withStaticImports(manifest, catalogueKey, keys);

  const files = [...new Set([...keys].map((k) => manifest[k]!.file))].filter((f) => f.endsWith('.js')).sort();
  let total = 0;
  let sent = 0;
  const withZod: string[] = [];
  for (const file of files) {
    const bytes = await fs.readFile(path.join(distDir, file));
    total += gzipSync(bytes, { level: 9 }).length;
    sent += await sentBrotliBytes(distDir, file);
    if (bytes.includes('$ZodType')) withZod.push(file);
  }
  return {
    name: 'login route initial JavaScript (gzip)',
    loginInitialJsGzipBytes: total,
    loginInitialJsSentBrotliBytes: sent,
    budgetBytes: LOGIN_BUDGET_BYTES,
    ratio: total / LOGIN_BUDGET_BYTES,
    files,
    withZod,
  };
}

if (import.meta.main) {
  const distDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const r = await benchBundle(distDir);
  for (const f of r.files) console.log(`  ${f}`);
  console.log(
    `${r.name}: ${(r.loginInitialJsGzipBytes / 1000).toFixed(1)} kB of ${r.budgetBytes / 1000} kB budget (ratio ${r.ratio.toFixed(2)}); sent as brotli: ${(r.loginInitialJsSentBrotliBytes / 1000).toFixed(1)} kB`,
  );
  if (r.ratio > 1) process.exitCode = 1;
  // The route tree and the login load at every start, also of /home: their address checks are by hand.
  if (r.withZod.length > 0) {
    console.error(
      `zod in the start graph (write the route's validateSearch by hand): ${r.withZod.join(', ')}`,
    );
    process.exitCode = 1;
  }
}
