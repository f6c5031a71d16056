/**
 * Fits a site's models on the forecast's worker thread (fit-worker.ts): one thread for the
 * process, started on first use and not keeping the process alive; requests queue on it. When
 * the thread cannot start, dies, or does not answer within 20 s, fits run on the calling thread
 * from then on (the answer is the same, only the event loop waits).
 */
import { Worker } from 'node:worker_threads';
import type { SiteHistory } from './engine.ts';
import { type ModelSeed, SiteModel } from './model.ts';

/** Longest wait for the thread's answer before fits move back to the calling thread. */
const REPLY_TIMEOUT_MS = 20_000;

type Reply = { id: number; seed?: ModelSeed; failure?: string };

let worker: Worker | null = null;
let broken = false;
let serial = 0;
const waiting = new Map<number, { resolve: (m: Reply) => void; reject: (e: Error) => void }>();

function failAll(error: Error): void {
  broken = true;
  worker = null;
  for (const w of waiting.values()) w.reject(error);
  waiting.clear();
}

function thread(): Worker | null {
  if (worker || broken) return worker;
  try {
    worker = new Worker(new URL('./fit-worker.ts', import.meta.url));
  } catch {
    broken = true;
    return null;
  }
  worker.unref();
  worker.on('message', (m: Reply) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve(m);
  });
  worker.on('error', (e) => failAll(e));
  worker.on('exit', () => failAll(new Error('forecast worker exited')));
  return worker;
}

/** True while fits go to the worker thread (diagnostics, tests). */
export function fitsOnWorker(): boolean {
  return worker !== null && !broken;
}

/**
 * The model of `history` as seen on day `today`, with today's forecast and the backtest
 * already fitted (on the worker thread when it runs).
 * @throws Error from augurs when a series cannot be fitted (engine.ts).
 */
export async function fitSiteModel(history: SiteHistory, today: number): Promise<SiteModel> {
  const w = thread();
  if (w) {
    const id = ++serial;
    try {
      const reply = await new Promise<Reply>((resolve, reject) => {
        // A thread that never answers (stuck loading) must not hold answers: give up on it.
        const timer = setTimeout(() => {
          worker?.terminate().catch(() => {});
          failAll(new Error('forecast worker did not answer'));
        }, REPLY_TIMEOUT_MS).unref();
        const settle = (done: () => void) => {
          clearTimeout(timer);
          done();
        };
        waiting.set(id, {
          resolve: (m) => settle(() => resolve(m)),
          reject: (e) => settle(() => reject(e)),
        });
        const { totals, parts, events, holidays } = history;
        try {
          w.postMessage({ id, history: { totals, parts, events, holidays }, today });
        } catch (e) {
          waiting.delete(id);
          settle(() => reject(e));
        }
      });
      if (reply.seed) return SiteModel.seeded(history, today, reply.seed);
      throw new Error(`forecast worker: ${reply.failure}`);
    } catch (e) {
      if (!broken) throw e;
    }
  }
  const model = new SiteModel(history, today);
  model.seed(); // fits now, as the worker would have
  return model;
}
