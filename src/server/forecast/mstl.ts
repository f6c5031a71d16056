/**
 * The statistics of the forecast: MSTL (multiple seasonal-trend decomposition by Loess,
 * Bandara, Hyndman & Bergmeir 2021) with an AutoETS model of the deseasonalised series, from
 * Grafana's augurs library (@bsull/augurs, Rust compiled to WebAssembly). The module is
 * instantiated once, synchronously, on first use. Decision 0017 says why this method and what
 * a fit costs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync, MSTL } from '@bsull/augurs/mstl';

let ready = false;

function ensureLoaded(): void {
  if (ready) return;
  const dir = path.dirname(fileURLToPath(import.meta.resolve('@bsull/augurs/mstl')));
  initSync({ module: readFileSync(path.join(dir, 'mstl_bg.wasm')) });
  ready = true;
}

/** What {@link mstlForecast} answers: the forecasts and the in-sample fitted values, both on y's scale. */
export interface MstlFit {
  /** Point forecasts of the `horizon` days after the series. */
  point: number[];
  /** One-step fitted value of each day of the series (same length), null when augurs gives none. */
  inSample: number[] | null;
}

/**
 * Point forecasts of the `horizon` days after series `y` (one value per day, no gaps, finite),
 * by MSTL with seasonal periods `periods` (default one week) and an AutoETS trend, with the
 * in-sample fitted values (their residuals give the back-transform's bias correction: engine.ts).
 * @throws Error from augurs when the series is too short for the periods (< 2 periods) or
 *   holds a non-finite value.
 */
export function mstlForecast(
  y: readonly number[],
  horizon: number,
  periods: readonly number[] = [7],
): MstlFit {
  ensureLoaded();
  const model = MSTL.ets([...periods]);
  try {
    model.fit(Float64Array.from(y));
    const point = model.predict(horizon).point;
    let inSample: number[] | null = null;
    try {
      const fitted = model.predictInSample().point;
      if (fitted.length === y.length) inSample = fitted;
    } catch {
      inSample = null; // no fitted values: the engine forgoes the correction rather than the forecast
    }
    return { point, inSample };
  } finally {
    model.free();
  }
}
