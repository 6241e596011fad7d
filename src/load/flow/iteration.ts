/**
 * One flow iteration on an undici dispatcher: the steps in order, each request's answer recorded under the
 * step's name with its latency from the step's intended start, captures into the iteration's variables, think
 * times, repeats, and at the end the iteration itself (iteration_duration from the iteration's intended start).
 *
 * Intended starts: the first step's is the iteration's (the pacer's arrival time in the open model); a later
 * step's is the moment the previous answer came plus the think time, so a late timer or a busy event loop is
 * inside the latency, never hidden (coordinated omission). Callbacks, not promises: this is the hot path.
 */
import type { Dispatcher } from 'undici';
import { atPointer, MISSING } from '../../util/json-pointer.ts';
import { errorCode } from '../engine/send-errors.ts';
import { isTimeout } from '../engine/types.ts';
import type { EngineOutcome } from '../engine/types.ts';
import type { Recorder } from '../metrics/recorder.ts';
import type { Clock } from '../pacer/clock.ts';
import type { FlowRunner } from './flow-runner.ts';
import type { PreparedFlow, PreparedStep } from './prepare.ts';
import { varText, type FlowState } from './template.ts';

/** Bodies read for captures are cut here: a capture reads a token or a cursor, not a download. */
export const MAX_CAPTURE_BODY_BYTES = 1 << 20;

interface Answer {
  status: number;
  error?: string;
  headers?: Record<string, string>;
  body?: string;
}

function sendStep(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, readBody: boolean, done: (answer: Answer) => void): void {
  let status = 0;
  let finished = false;
  let headers: Record<string, string> | undefined;
  const chunks: Buffer[] = [];
  let bytes = 0;
  const finish = (answer: Answer): void => {
    if (finished) return;
    finished = true;
    done(answer);
  };
  try {
    dispatcher.dispatch(request, {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode;
        headers = {};
        for (const [k, v] of Object.entries(responseHeaders ?? {})) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      },
      onResponseData(_controller, chunk) {
        if (readBody && bytes < MAX_CAPTURE_BODY_BYTES) {
          chunks.push(chunk);
          bytes += chunk.length;
        }
      },
      onResponseEnd() {
        finish({ status, ...(headers ? { headers } : {}), ...(readBody ? { body: Buffer.concat(chunks).toString('utf8') } : {}) });
      },
      onResponseError(_controller, err) {
        finish({ status: 0, error: errorCode(err) });
      },
    });
  } catch (err) {
    finish({ status: 0, error: errorCode(err) });
  }
}

/** Whether a variable holds something to follow (a cursor): not null, absent or empty. */
export function holdsValue(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** Applies the step's captures and expectJson to an answer; the first problem, or undefined. */
export function readAnswer(step: PreparedStep, answer: Answer, vars: Record<string, unknown>, state: FlowState): string | undefined {
  let json: unknown = MISSING;
  if (step.readsBody) {
    try {
      json = JSON.parse(answer.body ?? '');
    } catch {
      return 'the answer is not JSON';
    }
  }
  for (const c of step.captures) {
    if (c.kind === 'status') vars[c.variable] = answer.status;
    else if (c.kind === 'header') {
      const value = answer.headers?.[c.arg];
      if (value === undefined) return `no ${c.arg} header to capture as ${c.variable}`;
      vars[c.variable] = value;
    } else {
      const value = atPointer(json, c.arg);
      if (value === MISSING) return `nothing at ${c.arg || 'the body'} to capture as ${c.variable}`;
      vars[c.variable] = value;
    }
  }
  for (const e of step.expectJson) {
    const value = atPointer(json, e.pointer);
    state.vars = vars;
    const want = e.value !== null && typeof e.value === 'object' ? e.value.render(state) : e.value;
    const same = typeof want === 'string' ? value !== MISSING && varText(value) === want && value !== null : value === want;
    if (!same) return `${e.pointer || 'the body'} is ${value === MISSING ? 'missing' : JSON.stringify(value)}, expected ${JSON.stringify(want)}`;
  }
  return undefined;
}

export function createFlowRunner(flow: PreparedFlow, prefix: string, state: FlowState, clock: Clock, onProblem?: (step: string, problem: string) => void): FlowRunner {
  const random = state.random;
  let answered = 0;
  return {
    flow,
    get answered() {
      return answered;
    },
    iterate(dispatcher, recorder, base, intended, timeoutMs, done, signal) {
      const vars: Record<string, unknown> = {};
      state.vars = vars;
      for (const [name, template] of flow.vars) vars[name] = template.render(state);
      let index = 0;
      let runs = 0;
      // onStepFailure: continue goes on after a failed step, but the iteration still counts as failed (by its first).
      let firstFailure: string | undefined;
      const finish = (failedStep = firstFailure): void => {
        recorder.recordIteration(clock.now() - base - intended, failedStep);
        done(failedStep !== undefined);
      };
      // `stepIntended`: this step's intended start, ms after base.
      const next = (stepIntended: number): void => {
        for (;;) {
          if (index >= flow.steps.length) return finish();
          // Stopped between steps (Ctrl-C, abortOnFail): the iteration ends unfinished and is not an iteration of
          // the results, as k6 leaves interrupted iterations out of iterations and iteration_duration; its
          // requests so far are counted.
          if (signal?.aborted) return done(false);
          const step = flow.steps[index]!;
          if (step.repeat && (runs >= step.repeat.max || !holdsValue(vars[step.repeat.while]))) {
            index++;
            runs = 0;
            continue;
          }
          break;
        }
        const step = flow.steps[index]!;
        state.vars = vars;
        const headers: Record<string, string> = {};
        for (const [k, t] of step.headers) headers[k] = t.render(state);
        const request: Dispatcher.DispatchOptions = {
          method: step.method as Dispatcher.HttpMethod,
          path: prefix + step.path.render(state),
          headers,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          ...(step.body ? { body: step.body.render(state) } : {}),
        };
        sendStep(dispatcher, request, step.readsBody, (answer) => {
          const at = clock.now() - base;
          answered++;
          let problem: string | undefined;
          if (answer.status === 0) {
            const code = answer.error ?? 'unknown';
            recorder.recordError(step.nameIndex, code, at, isTimeout(code) ? at - stepIntended : undefined);
            problem = `transport error ${code}`;
          } else {
            const ok = step.expected(answer.status);
            recorder.record(step.nameIndex, answer.status, ok, at - stepIntended, at);
            problem = ok ? readAnswer(step, answer, vars, state) : `status ${answer.status}`;
          }
          if (problem !== undefined) {
            onProblem?.(step.name, problem);
            if (flow.abortOnFailure) return finish(step.name);
            firstFailure ??= step.name;
          }
          if (step.repeat) runs++;
          else index++;
          const think = step.think ? step.think.min + random() * (step.think.max - step.think.min) : 0;
          if (think <= 0) return next(at);
          setTimeout(() => next(at + think), think);
        });
      };
      next(intended);
    },
  };
}

/** The warm-up's arrivals were iterations: its `requests` become the requests they sent (every answer less the run's). */
export function withFlowWarmUpRequests(outcome: EngineOutcome, runner: FlowRunner, recorder: Recorder): EngineOutcome {
  if (!outcome.warmUp || outcome.warmUp.requests === 0) return outcome;
  return { ...outcome, warmUp: { ...outcome.warmUp, requests: runner.answered - recorder.counts().requests } };
}
