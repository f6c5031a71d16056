/**
 * Imported first by main.tsx, for its side effect: zod compiles no parser with `new Function`
 * and, above all, never probes whether it may. The server's Content-Security-Policy has no
 * 'unsafe-eval' (src/server/app.ts), so the probe, although zod catches its failure, is reported
 * by the browser as a violation on every page (issue #20 item 21). zod reads the setting when a
 * schema first parses, so it must be set before any module of ours runs.
 */
import { z } from 'zod';

z.config({ jitless: true });
