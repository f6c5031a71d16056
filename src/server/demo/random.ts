/**
 * The demo generator's random draws (generate.ts, counting.ts): pure-rand's xoroshiro128+ seeded
 * per (seed, site, day), so every piece of the demo chain comes out the same from the same seed.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** pure-rand's xoroshiro128+ behind the few draws the generator needs. */
export class Rng {
  private readonly g: ReturnType<typeof xoroshiro128plus>;
  constructor(seed: number) {
    this.g = xoroshiro128plus(seed | 0);
  }
  /** Uniform in [0, 1). */
  float(): number {
    return (this.g.next() >>> 0) / 4_294_967_296;
  }
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }
  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }
  /** One of `items`, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
  }
  /** Index drawn with the given weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
  /** Triangular distribution on [a, b] with mode c. */
  triangular(a: number, b: number, c: number): number {
    const u = this.float();
    const f = (c - a) / (b - a);
    return u < f ? a + Math.sqrt(u * (b - a) * (c - a)) : b - Math.sqrt((1 - u) * (b - a) * (b - c));
  }
}

/** 32-bit hash of integers, to seed one generator per (seed, site, day). */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9 | 0;
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h;
}
