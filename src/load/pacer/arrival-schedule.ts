/**
 * When the n-th arrival of an open-model run is due. The rate profile is a list of linear segments
 * (arrivals per second); the cumulative count A(t) is its integral, and arrival n is due at the t where
 * A(t) = n — so a constant rate gives exactly evenly spaced arrivals (0, 1/r, 2/r …) and a ramp gives
 * spacing that shrinks smoothly, with no per-second bursts. Inside a segment of length D going from rate b
 * to rate e, A(τ) = bτ + (e−b)τ²/(2D); its inverse is computed in the form τ = 2x / (b + √(b² + 4ax)),
 * which stays exact when the ramp is flat or goes down.
 */
import type { Segment } from '../executors/types.ts';

export interface ArrivalSchedule {
  /** ms from the start at which arrival n (0-based) is due, or undefined when the run has no n-th arrival. */
  timeOf(n: number): number | undefined;
  /** ms the schedule lasts (the sum of the segments). */
  readonly durationMs: number;
  /** Arrivals in the whole schedule. */
  readonly total: number;
}

interface Prepared {
  startMs: number;
  /** Arrivals before this segment (fractional). */
  before: number;
  /** Arrivals within it. */
  count: number;
  durationS: number;
  from: number;
  to: number;
}

export function arrivalSchedule(segments: readonly Segment[]): ArrivalSchedule {
  const prepared: Prepared[] = [];
  let startMs = 0;
  let before = 0;
  for (const s of segments) {
    const durationS = s.durationMs / 1000;
    const count = ((s.from + s.to) / 2) * durationS;
    prepared.push({ startMs, before, count, durationS, from: s.from, to: s.to });
    startMs += s.durationMs;
    before += count;
  }
  const durationMs = startMs;
  // Arrival n exists when A(t) = n for some t < durationMs; a tiny epsilon absorbs float error at the edges.
  const total = before <= 0 ? 0 : Math.ceil(before - 1e-9);
  let cursor = 0;
  return {
    durationMs,
    total,
    timeOf(n: number): number | undefined {
      if (n < 0 || n >= total) return undefined;
      // Arrivals are asked for in order, so the segment cursor only moves forward (it restarts if asked back).
      if (cursor >= prepared.length || (prepared[cursor] as Prepared).before > n) cursor = 0;
      while (cursor < prepared.length - 1) {
        const p = prepared[cursor] as Prepared;
        if (n < p.before + p.count && p.count > 0) break;
        cursor++;
      }
      const p = prepared[cursor] as Prepared;
      const x = Math.max(0, n - p.before);
      if (x === 0) return p.startMs;
      const a = (p.to - p.from) / (2 * p.durationS);
      const root = Math.sqrt(Math.max(0, p.from * p.from + 4 * a * x));
      const tau = (2 * x) / (p.from + root);
      return p.startMs + Math.min(tau, p.durationS) * 1000;
    },
  };
}
