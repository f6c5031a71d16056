/** What every counting route module receives when registered (routes/counting/counting-routes.ts). */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connect.ts';

/** The database whose pool the reads use, and the app's configuration (chain name, SMTP, rates). */
export interface CountingOptions {
  database: Database;
  config: Config;
}
