/**
 * Worker thread of the forecast: fits a site's models (today's forecast and the 8 backtest
 * weeks, model.ts) off the server's event loop, so a cold cache never holds up other answers.
 * In: `{ id, history, today }` (engine.ts SiteHistory, Maps cloned by postMessage).
 * Out: `{ id, seed }` (model.ts ModelSeed), or `{ id, failure }` with the error's text.
 */
import { parentPort } from 'node:worker_threads';
import type { SiteHistory } from './engine.ts';
import { SiteModel } from './model.ts';

const port = parentPort;

port?.on('message', (m: { id: number; history: SiteHistory; today: number }) => {
  try {
    const model = new SiteModel(m.history, m.today);
    port?.postMessage({ id: m.id, seed: model.seed() });
  } catch (e) {
    port?.postMessage({ id: m.id, failure: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
