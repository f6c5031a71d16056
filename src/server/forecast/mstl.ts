/**
 * The statistics of the forecast: MSTL (multiple seasonal-trend decomposition by Loess,
 * Bandara, Hyndman & Bergmeir 2021) with an AutoETS model of the deseasonalised series, from
 * Grafana's augurs library (@bsull/augurs, Rust compiled to WebAssembly). The module is
 * instantiated once, synchronously, on first use (~10 ms); a fit on 365 daily points takes
 * ~20 ms. Decision 0017 says why this method.
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

/**
 * Point forecasts of the `horizon` days after series `y` (one value per day, no gaps, finite),
 * by MSTL with seasonal periods `periods` (default one week) and an AutoETS trend.
 * @throws Error from augurs when the series is too short for the periods (< 2 periods) or
 *   holds a non-finite value.
 */
export function mstlForecast(
  y: readonly number[],
  horizon: number,
  periods: readonly number[] = [7],
): number[] {
  ensureLoaded();
  const model = MSTL.ets([...periods]);
  try {
    model.fit(Float64Array.from(y));
    return model.predict(horizon).point;
  } finally {
    model.free();
  }
}
