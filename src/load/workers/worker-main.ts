/**
 * One load worker thread: runs its slice of the scenario (segments.ts) with the same engines as the main thread,
 * posts a live snapshot every second and the full one at the end. It never evaluates thresholds: the main
 * thread does, over the merged data.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runClosedModel } from '../engine/closed-model.ts';
import { runOpenModel } from '../engine/open-model.ts';
import type { EngineInput } from '../engine/types.ts';
import { runClosedFlow } from '../flow/closed-flow.ts';
import { createFlowRunner, withFlowWarmUpRequests } from '../flow/iteration.ts';
import { flowMix, prepareFlow } from '../flow/prepare.ts';
import { getExecutor } from '../executors/registry.ts';
import { Recorder } from '../metrics/recorder.ts';
import { hrClock } from '../pacer/clock.ts';
import { seededRandom } from '../random.ts';
import { createRequestMix } from '../request-mix.ts';
import { bearersFor } from '../bearers.ts';
import { newTemplateState } from '../template.ts';
import { LIVE_SECONDS, type FromWorker, type ToWorker, type WorkerData } from './protocol.ts';

if (!parentPort) throw new Error('worker-main.ts runs only as a worker thread');
const port = parentPort;
const post = (message: FromWorker): void => port.postMessage(message);

async function main(data: WorkerData): Promise<void> {
  const { scenario, slice } = data;
  const bearers = bearersFor(scenario, data.credentials);
  // A flow: this worker runs its share of the iterations (every W-th arrival, or its VUs) with the main thread's code.
  const flow = scenario.flow ? prepareFlow(scenario.flow, { api: data.api, credentials: data.credentials, ...(bearers[0] !== undefined ? { bearer: bearers[0] } : {}) }) : undefined;
  const mix = flow ? flowMix(flow) : createRequestMix(scenario, { api: data.api, credentials: data.credentials, bearers });
  const recorder = new Recorder(mix.names, { rateLimitedAsFailure: scenario.rateLimitedAsFailure });
  const stop = new AbortController();
  let go: (t0: number) => void = () => {};
  const started = new Promise<number>((resolve) => (go = resolve));
  port.on('message', (message: ToWorker) => {
    if (message.type === 'go') go(message.t0);
    else if (message.type === 'stop') {
      stop.abort();
      go(hrClock.now());
    }
  });
  const templateState = newTemplateState(seededRandom(data.seed));
  // {{seq}} stays unique across workers: worker i hands out i+1, i+1+W, i+1+2W …
  templateState.seq = slice.index + 1 - slice.count;
  templateState.seqStep = slice.count;
  let timer: NodeJS.Timeout | undefined;
  const open = getExecutor(scenario.executor).model === 'open';
  const runner = flow ? createFlowRunner(flow, new URL(data.baseUrl).pathname.replace(/\/+$/, ''), Object.assign(templateState, { vars: {} }), hrClock) : undefined;
  const engine = open ? runOpenModel : runner ? (input: EngineInput) => runClosedFlow(input, runner) : runClosedModel;
  try {
    let outcome = await engine({
      ...(runner && open ? { flow: runner } : {}),
      scenario,
      baseUrl: data.baseUrl,
      mix,
      recorder,
      templateState,
      signal: stop.signal,
      slice,
      coreShare: data.coreShare,
      ready: (warmUp) => {
        post({ type: 'ready', ...(warmUp ? { warmUp } : {}) });
        return started;
      },
      onStart: (t0) => {
        timer = setInterval(() => {
          recorder.elapsedMs = hrClock.now() - t0;
          post({ type: 'snapshot', snapshot: recorder.workerSnapshot(Math.max(0, recorder.timeline.length - LIVE_SECONDS)) });
        }, 1000);
      },
    });
    clearInterval(timer);
    if (runner) outcome = withFlowWarmUpRequests(outcome, runner, recorder);
    recorder.elapsedMs = outcome.elapsedMs;
    post({ type: 'done', snapshot: recorder.workerSnapshot(), notes: outcome.notes, elapsedMs: outcome.elapsedMs, ...(outcome.warmUp ? { warmUp: outcome.warmUp } : {}) });
  } finally {
    clearInterval(timer);
    // Nothing more to send; the main thread terminates the worker once it has the last message.
    port.unref();
  }
}

main(workerData as WorkerData).catch((err: unknown) => {
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  port.unref();
});
