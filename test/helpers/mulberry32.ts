/**
 * mulberry32: a small seeded PRNG for tests whose synthetic runs and resamples must be the same on every run (the
 * compare tests' fixed seeds). src/load/random.ts's xorshift serves request templating; this one's sequences are
 * what the statistical tests' seeds were chosen with.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
