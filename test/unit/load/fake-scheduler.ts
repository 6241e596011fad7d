/** A deterministic clock + scheduler for the pacer: time moves only when the test (or a callback) says so. */
import type { Clock, Scheduler } from '../../../src/load/pacer/clock.ts';

export class FakeTime implements Clock, Scheduler {
  t = 0;
  /** How far `soon` moves the clock (a turn of the event loop is never free). */
  constructor(private readonly turnMs = 0.01) {}
  #queue: Array<{ at: number; seq: number; fn: () => void }> = [];
  #seq = 0;
  now = (): number => this.t;
  after = (ms: number, fn: () => void): void => {
    this.#queue.push({ at: this.t + Math.max(ms, 0), seq: this.#seq++, fn });
  };
  soon = (fn: () => void): void => {
    this.#queue.push({ at: this.t + this.turnMs, seq: this.#seq++, fn });
  };
  /** Runs callbacks in time order until none is due at or before `until`. */
  runUntil(until: number): void {
    for (;;) {
      this.#queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#queue[0];
      if (!next || next.at > until) break;
      this.#queue.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = Math.max(this.t, until);
  }
  /** Jumps the clock (a stalled event loop) without running anything. */
  stall(ms: number): void {
    this.t += ms;
  }
}
