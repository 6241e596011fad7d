/**
 * `--workers N`: one scenario on N worker threads (worker_threads, not child processes: one process, one
 * monotonic clock — process.hrtime is CLOCK_MONOTONIC for every thread, so a common t0 means the same instant
 * in each — and snapshots cross by structured clone, with no serialisation layer of our own).
 *
 * Each worker warms up its own connections, then waits; t0 is set a little ahead of the last `ready` so every
 * worker starts on the same schedule. Live snapshots (recent seconds) feed the main thread's progress line and
 * abortOnFail checks over merged data; at the end the full snapshots merge exactly (HDR histograms added, counts
 * summed, the timeline aligned on the shared t0).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../../config/types.ts';
import { mergeSnapshots, Recorder, type WorkerSnapshot } from '../metrics/recorder.ts';
import { getExecutor } from '../executors/registry.ts';
import { hrClock, type Clock } from '../pacer/clock.ts';
import { DEFAULT_BATCH_MS } from '../pacer/pacer.ts';
import type { WarmUp } from '../result.ts';
import type { Scenario } from '../scenario/types.ts';
import type { FromWorker, ToWorker, WorkerData } from './protocol.ts';

/** Margin between the last worker's `ready` and t0, so the `go` message reaches every worker first. */
const START_MARGIN_MS = 50;

export interface WorkerRunOptions {
  scenario: Scenario;
  baseUrl: string;
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  workers: number;
  names: readonly string[];
  signal: AbortSignal;
  seed: number;
  clock?: Clock;
  /** Cores this process may run on. @default os.availableParallelism() (the affinity mask's, as taskset sets it) */
  cores?: number;
  onStart?(t0: number): void;
}

export interface WorkerRun {
  /** The merged live view (recent seconds of the timeline only, full totals), for progress and abortOnFail. */
  live(): Recorder;
  readonly finished: Promise<{ recorder: Recorder; elapsedMs: number; notes: string[]; warmUp?: WarmUp }>;
}

/** Under tsx (the sources), the .mjs entry registers the loader first; a built copy runs worker-main.js. */
function entry(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./worker-entry.mjs', import.meta.url) : new URL('./worker-main.js', import.meta.url);
}

export function mergeWarmUps(warmUps: readonly (WarmUp | undefined)[]): WarmUp | undefined {
  const present = warmUps.filter((w): w is WarmUp => w !== undefined);
  if (present.length === 0) return undefined;
  const skipped = present.find((w) => w.skipped)?.skipped;
  return {
    // Workers warm up side by side: the warm-up lasted as long as the slowest one.
    durationMs: Math.max(...present.map((w) => w.durationMs)),
    requests: present.reduce((n, w) => n + w.requests, 0),
    errors: present.reduce((n, w) => n + w.errors, 0),
    connections: present.reduce((n, w) => n + w.connections, 0),
    ...(skipped ? { skipped } : {}),
  };
}

/**
 * Workers per core, when more workers run than the process has cores: their pacers share a core's wakes
 * (EngineInput.coreShare), and the note says what that costs in start resolution. Measured on one core with
 * two workers (docs/performance.md): the two pacers woke twice as often as one worker at the same total rate.
 */
export function coreShareOf(workers: number, cores: number, open: boolean): { coreShare: number; note?: string } {
  const coreShare = Math.max(1, Math.ceil(workers / Math.max(1, cores)));
  if (coreShare === 1 || !open) return { coreShare };
  const note = `${workers} workers on ${cores} core(s) this process may use: each worker's pacer wakes at most every ${(DEFAULT_BATCH_MS * coreShare).toFixed(1)} ms instead of ${DEFAULT_BATCH_MS} ms, so arrivals start up to that late (counted in their latency); workers beyond the cores add no CPU, only switches between them`;
  return { coreShare, note };
}

export function runInWorkers(options: WorkerRunOptions): WorkerRun {
  const clock = options.clock ?? hrClock;
  const count = options.workers;
  const { coreShare, note: shareNote } = coreShareOf(count, options.cores ?? availableParallelism(), getExecutor(options.scenario.executor).model === 'open');
  const rateLimitedAsFailure = options.scenario.rateLimitedAsFailure;
  const latest: (WorkerSnapshot | undefined)[] = new Array(count).fill(undefined);
  const workers = Array.from({ length: count }, (_, index) => {
    const data: WorkerData = {
      scenario: options.scenario,
      baseUrl: options.baseUrl,
      api: options.api,
      credentials: options.credentials,
      slice: { index, count },
      coreShare,
      seed: (options.seed + index * 0x9e3779b9) >>> 0,
    };
    return new Worker(entry(), { workerData: data });
  });
  const send = (message: ToWorker): void => workers.forEach((w) => w.postMessage(message));
  const onAbort = (): void => send({ type: 'stop' });
  options.signal.addEventListener('abort', onAbort, { once: true });

  const finished = (async () => {
    const ready: Promise<WarmUp | undefined>[] = [];
    const done: Promise<Extract<FromWorker, { type: 'done' }>>[] = [];
    workers.forEach((worker, i) => {
      let resolveReady!: (w: WarmUp | undefined) => void;
      let resolveDone!: (m: Extract<FromWorker, { type: 'done' }>) => void;
      let fail!: (err: Error) => void;
      const failed = new Promise<never>((_, reject) => (fail = reject));
      failed.catch(() => {});
      ready.push(Promise.race([new Promise<WarmUp | undefined>((r) => (resolveReady = r)), failed]));
      done.push(Promise.race([new Promise<Extract<FromWorker, { type: 'done' }>>((r) => (resolveDone = r)), failed]));
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') resolveReady(message.warmUp);
        else if (message.type === 'snapshot') latest[i] = message.snapshot;
        else if (message.type === 'done') resolveDone(message);
        else if (message.type === 'error') fail(new Error(`load worker ${i + 1} of ${count}: ${message.message}`));
      });
      worker.on('error', (err) => fail(new Error(`load worker ${i + 1} of ${count}: ${err.message}`)));
      worker.on('exit', (code) => fail(new Error(`load worker ${i + 1} of ${count} exited (code ${code}) before it finished`)));
    });
    try {
      await Promise.all(ready);
      const t0 = clock.now() + START_MARGIN_MS;
      send({ type: 'go', t0 });
      options.onStart?.(t0);
      const results = await Promise.all(done);
      const notes = [...(shareNote ? [shareNote] : []), ...results.flatMap((r, i) => r.notes.map((note) => `worker ${i + 1}/${count}: ${note}`))];
      return {
        recorder: mergeSnapshots(results.map((r) => r.snapshot), { rateLimitedAsFailure }),
        elapsedMs: Math.max(...results.map((r) => r.elapsedMs)),
        notes,
        ...withWarmUp(mergeWarmUps(results.map((r) => r.warmUp))),
      };
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      await Promise.all(workers.map((w) => w.terminate()));
    }
  })();

  return {
    live: () => {
      const present = latest.filter((s): s is WorkerSnapshot => s !== undefined);
      // Built afresh each second and holding only the recent seconds: no packing (RecorderOptions.packSeconds).
      return present.length ? mergeSnapshots(present, { rateLimitedAsFailure, packSeconds: false }) : new Recorder(options.names, { rateLimitedAsFailure });
    },
    finished,
  };
}

function withWarmUp(warmUp: WarmUp | undefined): { warmUp?: WarmUp } {
  return warmUp ? { warmUp } : {};
}
