/**
 * Live metrics to Prometheus remote write (`--metrics-out prometheus-rw=URL`): once a second, the scenario's
 * cumulative series (k6-series.ts) as a snappy-compressed protobuf WriteRequest, POSTed to URL.
 *
 * Bounded by design, so the endpoint can never slow the load or lose the run's own report:
 * - at most one push in flight; a tick that finds one in flight replaces the batch waiting behind it (the series
 *   are cumulative, so the newest batch carries everything; the replaced batch's samples are counted as not sent);
 * - each push has a deadline (timeoutMs); a failed or late push is counted, never retried;
 * - the scenario's last push is awaited at most `finishMs`; what did not arrive by then is counted.
 * The counts go to report.json (`metricsOutput`) and the console line of the scenario.
 */
import { compress } from 'snappyjs';
import { request } from 'undici';
import type { MetricsOutputResult } from '../result.ts';
import type { Recorder } from '../metrics/recorder.ts';
import { k6Series } from './k6-series.ts';
import { encodeWriteRequest, type Series } from './remote-write-proto.ts';

export interface MetricsOutSpec {
  kind: 'prometheus-rw';
  url: string;
  /** The testid label of every series (k6's convention for telling runs apart). @default the run id */
  testid?: string;
}

/** `prometheus-rw=URL` → a spec; undefined plus a problem when it is not one. */
export function parseMetricsOut(text: string): { spec?: MetricsOutSpec; problem?: string } {
  const match = /^([a-z-]+)=(.+)$/.exec(text.trim());
  if (!match) return { problem: `"${text}" is not KIND=URL (e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write)` };
  const [, kind, url] = match as unknown as [string, string, string];
  if (kind !== 'prometheus-rw') return { problem: `unknown metrics output "${kind}" (known: prometheus-rw; OTLP is not built yet, see ARCHITECTURE.md)` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: `"${url}" must be http or https` };
  return { spec: { kind: 'prometheus-rw', url } };
}

/**
 * Where pushes go: userinfo in the URL (`https://user:pass@host/api/v1/write`, how hosted remote-write endpoints
 * take basic auth) becomes an Authorization header, never part of the request line or of any output.
 */
export function endpointOf(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url);
  if (!u.username && !u.password) return { url, headers: {} };
  const credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.toString(), headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } };
}

/** The URL as reports show it: no userinfo, no query (either may hold a credential). */
export function displayUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export interface MetricsPusherOptions {
  /** A push's deadline. @default 5000 */
  timeoutMs?: number;
  /** How long the scenario's end waits for its last push. @default 5000 */
  finishMs?: number;
  now?: () => number;
}

export class PrometheusRemoteWrite {
  readonly #spec: MetricsOutSpec;
  readonly #endpoint: { url: string; headers: Record<string, string> };
  readonly #scenario: string;
  readonly #testid: string;
  readonly #timeoutMs: number;
  readonly #finishMs: number;
  readonly #now: () => number;
  #inFlight: Promise<void> | undefined;
  #inFlightSize = 0;
  #closed = false;
  #waiting: Series[] | undefined;
  readonly #stats: Omit<MetricsOutputResult, 'kind' | 'url' | 'testid'> = { pushes: 0, samplesSent: 0, failedPushes: 0, samplesNotSent: 0 };

  constructor(spec: MetricsOutSpec, scenario: string, options: MetricsPusherOptions = {}) {
    this.#spec = spec;
    this.#endpoint = endpointOf(spec.url);
    this.#scenario = scenario;
    this.#testid = spec.testid ?? 'harness';
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#finishMs = options.finishMs ?? 5000;
    this.#now = options.now ?? Date.now;
  }

  /** Queues the recorder's series now; returns at once. */
  tick(recorder: Recorder): void {
    this.#enqueue(k6Series(recorder, this.#scenario, this.#testid, this.#now()));
  }

  /** The scenario's final numbers (report.json's), pushed and awaited at most finishMs; then the summary. */
  async finish(recorder: Recorder): Promise<MetricsOutputResult> {
    this.#enqueue(k6Series(recorder, this.#scenario, this.#testid, this.#now()));
    const deadline = this.#now() + this.#finishMs;
    while ((this.#inFlight || this.#waiting) && this.#now() < deadline) {
      await Promise.race([this.#inFlight ?? Promise.resolve(), new Promise((resolve) => setTimeout(resolve, Math.max(1, deadline - this.#now())).unref())]);
    }
    if (this.#waiting) {
      this.#stats.samplesNotSent += this.#waiting.length;
      this.#waiting = undefined;
    }
    // A push still unanswered at the bound is not known to have arrived: counted as not sent, and whatever it ends
    // with later changes nothing (the summary is final).
    if (this.#inFlightSize > 0) this.#stats.samplesNotSent += this.#inFlightSize;
    this.#closed = true;
    return this.summary();
  }

  summary(): MetricsOutputResult {
    return { kind: 'prometheus-rw', url: displayUrl(this.#spec.url), testid: this.#testid, ...this.#stats };
  }

  #enqueue(series: Series[]): void {
    if (this.#waiting) this.#stats.samplesNotSent += this.#waiting.length;
    this.#waiting = series;
    if (!this.#inFlight) this.#next();
  }

  #next(): void {
    const batch = this.#waiting;
    this.#waiting = undefined;
    if (!batch || this.#closed) return;
    this.#inFlightSize = batch.length;
    this.#inFlight = this.#push(batch).finally(() => {
      this.#inFlight = undefined;
      this.#inFlightSize = 0;
      this.#next();
    });
  }

  async #push(batch: Series[]): Promise<void> {
    const record = (ok: boolean, why?: string): void => {
      if (this.#closed) return;
      if (ok) {
        this.#stats.pushes++;
        this.#stats.samplesSent += batch.length;
      } else this.#failed(batch, why ?? 'error');
    };
    try {
      const body = compress(encodeWriteRequest(batch));
      const res = await request(this.#endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0', 'user-agent': 'api-harness', ...this.#endpoint.headers },
        body,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await res.body.text();
      record(res.statusCode >= 200 && res.statusCode < 300, `HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200).trim()}` : ''}`);
    } catch (err) {
      const e = err as { code?: string; name?: string; message?: string };
      record(false, e.code ?? (e.name && e.name !== 'Error' ? e.name : (e.message ?? 'error')).slice(0, 120));
    }
  }

  #failed(batch: Series[], why: string): void {
    this.#stats.failedPushes++;
    this.#stats.samplesNotSent += batch.length;
    this.#stats.lastError = why;
  }
}

/** The config's `load.metricsOut` (already schema-checked) for a run: testid is the run id. */
export function metricsOutFor(text: string | undefined, runId: string): MetricsOutSpec | undefined {
  if (!text) return undefined;
  const { spec } = parseMetricsOut(text);
  return spec ? { ...spec, testid: runId } : undefined;
}
