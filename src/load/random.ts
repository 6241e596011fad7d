/**
 * A small, fast, seedable PRNG (xorshift32) for request templating: load generation calls it tens of thousands
 * of times a second, and tests need the same values on every run. Not for anything secret.
 */
export type Random = () => number;

export function seededRandom(seed = (Date.now() ^ (process.pid << 8)) >>> 0): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** An integer in [min, max]. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
