import fs from 'node:fs';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { cataloguePart } from './src/client/lib/catalogue-parts.ts';

/**
 * `i18n/<lang>.json?part=start|later` (src/client/lib/i18n.tsx) as that part's messages, like the
 * build's catalogue plugin (vite.config.ts) but as plain strings, so client tests run on the same
 * split as the browser.
 */
function catalogueParts(): Plugin {
  const PART = /^(.*[\\/]i18n[\\/](?:fr|en|de)\.json)\?part=(start|later)$/;
  const PREFIX = '\0catalogue-part:';
  const SUFFIX = '.part.js';
  return {
    name: 'comptoir:catalogue-parts-in-tests',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const match = PART.exec(source);
      if (!match) return null;
      const resolved = await this.resolve(match[1]!, importer, { ...options, skipSelf: true });
      // Not ending in .json, so Vite's JSON plugin leaves it to us.
      return resolved ? `${PREFIX}${match[2]}:${resolved.id}${SUFFIX}` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [part, ...file] = id.slice(PREFIX.length, -SUFFIX.length).split(':');
      const catalogue = JSON.parse(fs.readFileSync(file.join(':'), 'utf8')) as Record<string, string>;
      const messages = Object.fromEntries(
        Object.entries(catalogue).filter(([key]) => cataloguePart(key) === part),
      );
      return `export default ${JSON.stringify(messages)};`;
    },
  };
}

export default defineConfig({
  plugins: [catalogueParts()],
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // The real-data suite reads ../shared/data and has its own config (vitest.realdata.config.ts);
    // the Citus parity suite compares a cluster with plain PostgreSQL, so it runs only in
    // vitest.citus.config.ts (on one PostgreSQL it would compare two plain databases).
    exclude: ['**/node_modules/**', '**/.git/**', 'tests/realdata/**', 'tests/reports/citus-parity.test.ts'],
    globalSetup: ['tests/setup/postgres.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
