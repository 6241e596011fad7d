/**
 * A scenario's metrics as k6's Prometheus remote-write output names them (k6 `--out experimental-prometheus-rw`,
 * its default trend stats), so dashboards built for k6 read the harness's series unchanged:
 *
 *   k6_http_reqs_total{name, status, scenario, testid}            counter: requests (status "0": transport errors)
 *   k6_http_req_failed_rate{name, scenario, testid}               gauge: failed / requests
 *   k6_http_req_duration_{p99,p95,p90,med,max}{name, …}           gauges in SECONDS, as k6 converts time trends
 *   k6_http_req_failed_rate{scenario, testid}, k6_http_req_duration_{…}{scenario, testid}
 *                                                                 the same over ALL the scenario's requests (no name
 *                                                                 label: k6 labels a series with the tags it has),
 *                                                                 report.json's latency and failed ÷ requests
 *   k6_iterations_total, k6_dropped_iterations_total              counters
 *   k6_iteration_duration_{p99,p95,med,max}{scenario, testid}     flows only (k6's iteration_duration)
 *
 * Values are cumulative from the scenario's start (k6's trend stats are too), read from the same HDR histograms
 * and counts as report.json, so the last push of a scenario holds exactly report.json's numbers. Where k6 labels
 * a trend with `status` too, the harness does not: its latency histograms are kept per name (byName), not per
 * name and status.
 */
import { summarizeLatency } from '../metrics/histogram.ts';
import type { Recorder } from '../metrics/recorder.ts';
import type { LatencySummary } from '../result.ts';
import type { Series } from './remote-write-proto.ts';

const TREND_STATS: Array<[suffix: string, key: keyof LatencySummary]> = [
  ['p99', 'p99'],
  ['p95', 'p95'],
  ['p90', 'p90'],
  ['med', 'p50'],
  ['max', 'max'],
];

/** The series of `recorder` at `timestampMs` (one sample each), labelled with the scenario and testid. */
export function k6Series(recorder: Recorder, scenario: string, testid: string, timestampMs: number): Series[] {
  const out: Series[] = [];
  const put = (name: string, labels: Record<string, string>, value: number): void => {
    out.push({ labels: { __name__: name, scenario, testid, ...labels }, samples: [{ value, timestampMs }] });
  };
  let iterations = 0;
  for (const name of recorder.names) {
    const counts = recorder.counts(name);
    iterations += counts.requests;
    for (const [status, n] of Object.entries(counts.statusCodes)) put('k6_http_reqs_total', { name, status }, n);
    if (counts.errors > 0) put('k6_http_reqs_total', { name, status: '0' }, counts.errors);
    if (counts.requests === 0) continue;
    put('k6_http_req_failed_rate', { name }, counts.failed / counts.requests);
    const latency = summarizeLatency(recorder.histogram(name));
    for (const [suffix, key] of TREND_STATS) put(`k6_http_req_duration_${suffix}`, { name }, latency[key] / 1000);
  }
  // All requests, across names: a p99 cannot be made from the names' p99s, so it is read from the histogram of all.
  const all = recorder.counts();
  if (all.requests > 0) {
    put('k6_http_req_failed_rate', {}, all.failed / all.requests);
    const latency = summarizeLatency(recorder.histogram());
    for (const [suffix, key] of TREND_STATS) put(`k6_http_req_duration_${suffix}`, {}, latency[key] / 1000);
  }
  // A mix's iteration is one request (as in a k6 script whose default function sends one); a flow counts its own.
  put('k6_iterations_total', {}, recorder.iterations ? recorder.iterations.count : iterations);
  put('k6_dropped_iterations_total', {}, recorder.dropped);
  if (recorder.iterations && recorder.iterations.count > 0) {
    put('k6_iterations_failed_total', {}, recorder.iterations.failed);
    const d = summarizeLatency(recorder.iterations.histogram);
    for (const [suffix, key] of TREND_STATS) if (suffix !== 'p90') put(`k6_iteration_duration_${suffix}`, {}, d[key] / 1000);
  }
  return out;
}
