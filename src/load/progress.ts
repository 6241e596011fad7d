/**
 * Live progress of a scenario: on a TTY one line redrawn in place (bar, elapsed/remaining, current rps, p99
 * of the last second, failures); without a TTY (CI logs) a plain line every few seconds. Only prints: the
 * numbers come from the runner (ProgressSample).
 */
export interface ProgressSample {
  elapsedMs: number;
  plannedMs: number;
  requests: number;
  /** Requests answered in the last full second. */
  rps: number;
  /** p99 of the last full second, ms. */
  p99: number;
  failed: number;
  rateLimited: number;
  dropped: number;
}

export interface ProgressSink {
  start(name: string, plannedMs: number): void;
  update(sample: ProgressSample): void;
  stop(): void;
}

export const silentProgress: ProgressSink = { start() {}, update() {}, stop() {} };

interface Stream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))}s`;

export function formatSample(name: string, s: ProgressSample): string {
  return `${name}: ${seconds(s.elapsedMs)}/${seconds(s.plannedMs)} (${seconds(s.plannedMs - s.elapsedMs)} left)  ${Math.round(s.rps)} req/s  p99 ${s.p99.toFixed(1)} ms  requests ${s.requests}  failed ${s.failed}  429 ${s.rateLimited}  dropped ${s.dropped}`;
}

/** The same numbers in few characters, for a narrow terminal: counts are shortened, never cut. */
export function compactSample(s: ProgressSample): string {
  return `${seconds(s.elapsedMs)}/${seconds(s.plannedMs)} ${Math.round(s.rps)}/s p99 ${s.p99.toFixed(1)}ms req ${s.requests} fail ${s.failed} 429 ${s.rateLimited} drop ${s.dropped}`;
}

/** The live line within `columns - 1`: the full line when it fits, else the compact counts with the name shortened. */
export function fitProgressLine(bar: string, name: string, s: ProgressSample, columns: number): string {
  const full = `${bar} ${formatSample(name, s)}`;
  if (full.length <= columns - 1) return full;
  const counts = compactSample(s);
  const room = columns - 1 - counts.length - 2;
  return room >= 4 ? `${name.length <= room ? name : `${name.slice(0, room - 1)}…`}: ${counts}` : counts;
}

export function createProgress(stream: Stream = process.stderr, options: { plainEveryMs?: number; now?: () => number } = {}): ProgressSink {
  const tty = stream.isTTY === true && !process.env.CI;
  const every = options.plainEveryMs ?? 5000;
  const now = options.now ?? Date.now;
  let name = '';
  let lastPlain = 0;
  let drawn = false;
  return {
    start(scenario, _plannedMs) {
      name = scenario;
      lastPlain = now();
    },
    update(sample) {
      if (tty) {
        const width = 20;
        const done = Math.min(width, Math.round((sample.elapsedMs / Math.max(1, sample.plannedMs)) * width));
        const bar = `[${'='.repeat(done)}${' '.repeat(width - done)}]`;
        stream.write(`\r\x1b[2K${fitProgressLine(bar, name, sample, stream.columns ?? 160)}`);
        drawn = true;
      } else if (now() - lastPlain >= every) {
        lastPlain = now();
        stream.write(`${formatSample(name, sample)}\n`);
      }
    },
    stop() {
      if (tty && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
