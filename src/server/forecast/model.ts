/**
 * A site's forecasts as seen on one day ("today", a day number): the days from today on are
 * forecast from the whole history before today; a past day of the last 8 weeks is forecast as
 * the rolling backtest does, from the history before the start of its backtest week (today − 7k
 * … today − 7k + 6), so the forecast shown beside it is the one its reliability was measured
 * on; an older day, from the history before its 28-day block (blocks laid back from the first
 * backtest week). Fits are made on demand and kept: a {@link SiteModel} is what the forecast
 * cache holds per site.
 */
import type { Reliability } from '../../contract/forecast.ts';
import { DAY_PARTS, type DayPartKey } from '../../contract/day-parts.ts';
import { type DayForecast, firstSalesDay, forecastFrom, type SiteHistory } from './engine.ts';

/** Weeks of the rolling backtest (issue #19: the last 8 weeks). */
export const BACKTEST_WEEKS = 8;
/**
 * Days before the backtest weeks are forecast in blocks of this many days, each from the
 * history before the block: a year of past days costs 14 fits rather than 53 (KPI periods).
 */
export const OLDER_BLOCK_DAYS = 28;
/** Days from today forecast in one fit (the route's 62 days and a margin). */
const FUTURE_HORIZON = 70;
/** Days each backtest week's fit forecasts: its own 7 and the next 7 (the 8–14-day horizon band). */
export const BACKTEST_HORIZON_DAYS = 14;

/** Reliability of a site: overall and per day part (contract/forecast.ts). */
export type SiteReliability = Reliability & { byDayPart: ({ key: DayPartKey } & Reliability)[] };

/** Sums of a backtest: Σ|a − f|, Σ(f − a), Σa; days with sales or a forecast, and those inside their range. */
interface ErrorSums {
  abs: number;
  signed: number;
  actual: number;
  days: number;
  inside: number;
}

function addError(sums: ErrorSums, actual: number, forecast: number, low = forecast, high = forecast): void {
  sums.abs += Math.abs(actual - forecast);
  sums.signed += forecast - actual;
  sums.actual += actual;
  if (actual > 0 || forecast > 0) {
    sums.days++;
    if (actual >= low && actual <= high) sums.inside++;
  }
}

function reliabilityOf(sums: ErrorSums, weeks: number): Reliability {
  const coverage = sums.days > 0 ? sums.inside / sums.days : null;
  if (sums.actual <= 0) return { wape: null, bias: null, weeks, coverage };
  return { wape: sums.abs / sums.actual, bias: sums.signed / sums.actual, weeks, coverage };
}

const emptySums = (): ErrorSums => ({ abs: 0, signed: 0, actual: 0, days: 0, inside: 0 });

/** What a rolling backtest measured: our method, and the seasonal-naive one on the same days. */
export interface Backtest {
  ours: SiteReliability;
  /** Same weekday last week (actual of day − 7) on the same days. */
  naive: Reliability;
  /** Σ|a − f|, Σa of ours and of the naive forecast (to pool several sites: bench, tests). */
  sums: { ours: ErrorSums; naive: ErrorSums };
}

/** What {@link SiteModel.seed} answers: the fits a worker thread made, as plain data. */
export interface ModelSeed {
  future: DayForecast[];
  weeks: [number, DayForecast[]][];
  backtest: Backtest;
}

/** The forecasts of one site as seen on day `today`; see the module comment. */
export class SiteModel {
  readonly history: SiteHistory;
  readonly today: number;
  readonly #weeks = new Map<number, DayForecast[]>();
  readonly #blocks = new Map<number, DayForecast[]>();
  #future: DayForecast[] | null = null;
  #backtest: Backtest | null = null;

  constructor(history: SiteHistory, today: number) {
    this.history = history;
    this.today = today;
  }

  /**
   * Fits today's forecast and the backtest now, and answers them as plain data a worker thread
   * can send back ({@link SiteModel.seeded} rebuilds the model from it).
   */
  seed(): ModelSeed {
    const backtest = this.backtest();
    this.day(this.today);
    return { future: this.#future!, weeks: [...this.#weeks], backtest };
  }

  /** The model of `history` on `today` with the fits of `seed` (made from the same history). */
  static seeded(history: SiteHistory, today: number, seed: ModelSeed): SiteModel {
    const model = new SiteModel(history, today);
    model.#future = seed.future;
    for (const [origin, week] of seed.weeks) model.#weeks.set(origin, week);
    model.#backtest = seed.backtest;
    return model;
  }

  /**
   * The {@link BACKTEST_HORIZON_DAYS} days from `origin`, forecast from the history before
   * `origin` (its first 7 are the backtest week's; the next 7 measure the 8–14-day horizon).
   */
  week(origin: number): DayForecast[] {
    let week = this.#weeks.get(origin);
    if (!week) {
      week = forecastFrom(this.history, origin, BACKTEST_HORIZON_DAYS);
      this.#weeks.set(origin, week);
    }
    return week;
  }

  /** The forecast of `day`: from today's fit when day ≥ today, else from its backtest week's or block's. */
  day(day: number): DayForecast {
    if (day >= this.today) {
      const offset = day - this.today;
      if (!this.#future || offset >= this.#future.length) {
        this.#future = forecastFrom(this.history, this.today, Math.max(FUTURE_HORIZON, offset + 1));
      }
      return this.#future[offset]!;
    }
    const backtestStart = this.today - 7 * BACKTEST_WEEKS;
    if (day >= backtestStart) {
      const origin = this.today - 7 * Math.ceil((this.today - day) / 7);
      return this.week(origin)[day - origin]!;
    }
    const origin = backtestStart - OLDER_BLOCK_DAYS * Math.ceil((backtestStart - day) / OLDER_BLOCK_DAYS);
    return this.block(origin)[day - origin]!;
  }

  /** The {@link OLDER_BLOCK_DAYS} days from `origin`, forecast from the history before it. */
  block(origin: number): DayForecast[] {
    let block = this.#blocks.get(origin);
    if (!block) {
      block = forecastFrom(this.history, origin, OLDER_BLOCK_DAYS);
      this.#blocks.set(origin, block);
    }
    return block;
  }

  /**
   * The rolling backtest of the last {@link BACKTEST_WEEKS} weeks (computed once): WAPE, bias and
   * 80 % range coverage of the days 1–7 ahead of each origin (overall and per day part), and per
   * horizon band, 1–7 and 8–14 days ahead (issue #31).
   */
  backtest(): Backtest {
    if (!this.#backtest) this.#backtest = this.#runBacktest();
    return this.#backtest;
  }

  #runBacktest(): Backtest {
    const first = firstSalesDay(this.history.totals);
    const ours = emptySums();
    const naive = emptySums();
    const parts = DAY_PARTS.map(emptySums);
    const bands = [emptySums(), emptySums()];
    const bandWeeks = [0, 0];
    let weeks = 0;
    for (let k = 1; k <= BACKTEST_WEEKS; k++) {
      const origin = this.today - 7 * k;
      if (first === null || first >= origin) continue;
      const forecasts = this.week(origin);
      let weekActual = 0;
      for (const f of forecasts.slice(0, 7)) {
        const actual = this.history.totals.get(f.day) ?? 0;
        weekActual += actual;
        addError(ours, actual, f.total, f.range.low, f.range.high);
        addError(bands[0]!, actual, f.total, f.range.low, f.range.high);
        addError(naive, actual, this.history.totals.get(f.day - 7) ?? 0);
        const actualParts = this.history.parts.get(f.day);
        for (let i = 0; i < DAY_PARTS.length; i++) {
          const r = f.partRanges[i]!;
          addError(parts[i]!, actualParts?.[i] ?? 0, f.parts[i]!, r.low, r.high);
        }
      }
      if (weekActual > 0) {
        weeks++;
        bandWeeks[0]!++;
      }
      // Days 8–14 ahead, where they are before today (every backtest week but the last).
      let laterActual = 0;
      for (const f of forecasts.slice(7).filter((d) => d.day < this.today)) {
        const actual = this.history.totals.get(f.day) ?? 0;
        laterActual += actual;
        addError(bands[1]!, actual, f.total, f.range.low, f.range.high);
      }
      if (laterActual > 0) bandWeeks[1]!++;
    }
    const byHorizon = [
      { fromDay: 1, toDay: 7, ...reliabilityOf(bands[0]!, bandWeeks[0]!) },
      { fromDay: 8, toDay: BACKTEST_HORIZON_DAYS, ...reliabilityOf(bands[1]!, bandWeeks[1]!) },
    ].map((b) => ({ ...b, coverage: b.coverage ?? null }));
    return {
      ours: {
        ...reliabilityOf(ours, weeks),
        horizonDays: 7,
        byHorizon,
        byDayPart: DAY_PARTS.map((p, i) => ({ key: p.key, ...reliabilityOf(parts[i]!, weeks) })),
      },
      naive: reliabilityOf(naive, weeks),
      sums: { ours, naive },
    };
  }
}
