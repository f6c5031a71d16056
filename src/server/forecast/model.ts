/**
 * A site's forecasts as seen on one day ("today", a day number): the days from today on are
 * forecast from the whole history before today; a past day is forecast as the rolling backtest
 * does, from the history before the start of its backtest week (today − 7k … today − 7k + 6),
 * so the forecast shown beside a past day is the one its reliability was measured on. Fits
 * are made on demand and kept: a {@link SiteModel} is what the forecast cache holds per site.
 */
import type { Reliability } from '../../contract/forecast.ts';
import { DAY_PARTS, type DayPartKey } from '../../contract/day-parts.ts';
import { type DayForecast, firstSalesDay, forecastFrom, type SiteHistory } from './engine.ts';

/** Weeks of the rolling backtest (issue #19: the last 8 weeks). */
export const BACKTEST_WEEKS = 8;
/** Days from today forecast in one fit (the route's 62 days and a margin). */
const FUTURE_HORIZON = 70;

/** Reliability of a site: overall and per day part (contract/forecast.ts). */
export type SiteReliability = Reliability & { byDayPart: ({ key: DayPartKey } & Reliability)[] };

/** Sums of a backtest: Σ|a − f|, Σ(f − a), Σa. */
interface ErrorSums {
  abs: number;
  signed: number;
  actual: number;
}

function addError(sums: ErrorSums, actual: number, forecast: number): void {
  sums.abs += Math.abs(actual - forecast);
  sums.signed += forecast - actual;
  sums.actual += actual;
}

function reliabilityOf(sums: ErrorSums, weeks: number): Reliability {
  if (sums.actual <= 0) return { wape: null, bias: null, weeks };
  return { wape: sums.abs / sums.actual, bias: sums.signed / sums.actual, weeks };
}

const emptySums = (): ErrorSums => ({ abs: 0, signed: 0, actual: 0 });

/** What a rolling backtest measured: our method, and the seasonal-naive one on the same days. */
export interface Backtest {
  ours: SiteReliability;
  /** Same weekday last week (actual of day − 7) on the same days. */
  naive: Reliability;
  /** Σ|a − f|, Σa of ours and of the naive forecast (to pool several sites: bench, tests). */
  sums: { ours: ErrorSums; naive: ErrorSums };
}

/** The forecasts of one site as seen on day `today`; see the module comment. */
export class SiteModel {
  readonly history: SiteHistory;
  readonly today: number;
  readonly #weeks = new Map<number, DayForecast[]>();
  #future: DayForecast[] | null = null;
  #backtest: Backtest | null = null;

  constructor(history: SiteHistory, today: number) {
    this.history = history;
    this.today = today;
  }

  /** The 7 days from `origin`, forecast from the history before `origin`. */
  week(origin: number): DayForecast[] {
    let week = this.#weeks.get(origin);
    if (!week) {
      week = forecastFrom(this.history, origin, 7);
      this.#weeks.set(origin, week);
    }
    return week;
  }

  /** The forecast of `day`: from today's fit when day ≥ today, else from its backtest week's. */
  day(day: number): DayForecast {
    if (day >= this.today) {
      const offset = day - this.today;
      if (!this.#future || offset >= this.#future.length) {
        this.#future = forecastFrom(this.history, this.today, Math.max(FUTURE_HORIZON, offset + 1));
      }
      return this.#future[offset]!;
    }
    const origin = this.today - 7 * Math.ceil((this.today - day) / 7);
    return this.week(origin)[day - origin]!;
  }

  /** The rolling backtest of the last {@link BACKTEST_WEEKS} weeks (computed once). */
  backtest(): Backtest {
    if (!this.#backtest) this.#backtest = this.#runBacktest();
    return this.#backtest;
  }

  #runBacktest(): Backtest {
    const first = firstSalesDay(this.history.totals);
    const ours = emptySums();
    const naive = emptySums();
    const parts = DAY_PARTS.map(emptySums);
    let weeks = 0;
    for (let k = 1; k <= BACKTEST_WEEKS; k++) {
      const origin = this.today - 7 * k;
      if (first === null || first >= origin) continue;
      let weekActual = 0;
      for (const f of this.week(origin)) {
        const actual = this.history.totals.get(f.day) ?? 0;
        weekActual += actual;
        addError(ours, actual, f.total);
        addError(naive, actual, this.history.totals.get(f.day - 7) ?? 0);
        const actualParts = this.history.parts.get(f.day);
        for (let i = 0; i < DAY_PARTS.length; i++) addError(parts[i]!, actualParts?.[i] ?? 0, f.parts[i]!);
      }
      if (weekActual > 0) weeks++;
    }
    return {
      ours: {
        ...reliabilityOf(ours, weeks),
        byDayPart: DAY_PARTS.map((p, i) => ({ key: p.key, ...reliabilityOf(parts[i]!, weeks) })),
      },
      naive: reliabilityOf(naive, weeks),
      sums: { ours, naive },
    };
  }
}
