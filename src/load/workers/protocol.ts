/**
 * The messages between the main thread and a load worker (src/load/workers/pool.ts ↔ worker-main.ts), all
 * structured-clone-safe. One scenario per worker: warm up → `ready` → `go` (the common t0) → a live snapshot
 * every second (recent seconds only) → `done` with the full snapshot, which the main thread merges exactly.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../../config/types.ts';
import type { Slice } from '../engine/segments.ts';
import type { WorkerSnapshot } from '../metrics/recorder.ts';
import type { WarmUp } from '../result.ts';
import type { Scenario } from '../scenario/types.ts';

export interface WorkerData {
  scenario: Scenario;
  baseUrl: string;
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  slice: Slice;
  /** Workers per core this process may run on (EngineInput.coreShare). */
  coreShare: number;
  /** Seed of this worker's template randomness (distinct per worker). */
  seed: number;
}

export type ToWorker = { type: 'go'; t0: number } | { type: 'stop' };

export type FromWorker =
  | { type: 'ready'; warmUp?: WarmUp }
  | { type: 'snapshot'; snapshot: WorkerSnapshot }
  | { type: 'done'; snapshot: WorkerSnapshot; notes: string[]; elapsedMs: number; warmUp?: WarmUp }
  | { type: 'error'; message: string };

/** Seconds of timeline a live snapshot carries (the progress line and abortOnFail read the last full second). */
export const LIVE_SECONDS = 3;
