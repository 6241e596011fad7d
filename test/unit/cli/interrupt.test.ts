/**
 * The interrupt rules without a real process (signals are emitted on `process`; exit is injected): the first
 * signal aborts a command that claimed the signal, the second only starts a bounded flush, and a command that
 * has nothing to wind down exits 105 at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForInterrupts, type Interrupts } from '../../../src/cli/interrupt.ts';

let interrupts: Interrupts | undefined;
afterEach(() => {
  interrupts?.dispose();
  vi.useRealTimers();
});

describe('listenForInterrupts', () => {
  it('first signal aborts a claimed command; a second forces exit 105 only after the flush time', () => {
    vi.useFakeTimers();
    const exits: number[] = [];
    const lines: string[] = [];
    interrupts = listenForInterrupts({ flushMs: 3000, windDownMs: 60_000, exit: (code) => void exits.push(code), write: (line) => void lines.push(line) });
    const signal = interrupts.claim();
    process.emit('SIGINT');
    expect(signal.aborted).toBe(true);
    expect(interrupts.received).toBe('SIGINT');
    expect(exits).toEqual([]);
    process.emit('SIGINT');
    process.emit('SIGTERM');
    vi.advanceTimersByTime(2999);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([105]);
    expect(lines[0]).toContain('received SIGINT: stopping; the partial report is being written');
  });

  it('the wind-down after one signal is bounded too', () => {
    vi.useFakeTimers();
    const exits: number[] = [];
    interrupts = listenForInterrupts({ windDownMs: 5000, exit: (code) => void exits.push(code), write: () => undefined });
    interrupts.claim();
    process.emit('SIGTERM');
    vi.advanceTimersByTime(5000);
    expect(exits).toEqual([105]);
  });

  it('a command that never claimed the signal exits 105 at once', () => {
    const exits: number[] = [];
    interrupts = listenForInterrupts({ exit: (code) => void exits.push(code), write: () => undefined });
    process.emit('SIGTERM');
    expect(exits).toEqual([105]);
  });
});
