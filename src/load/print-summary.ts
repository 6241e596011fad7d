/** Printing only: ScenarioResults and capacity results as text tables for the terminal. */
import { interruptedText } from '../util/capacity-words.ts';
import { styleText } from 'node:util';
import type { CapacityResult, ScenarioResult } from './result.ts';

/** CROSSED in red on a terminal only (never in CI logs, pipes or with NO_COLOR). */
const crossedMark = (): string => (process.stdout.isTTY === true && !process.env.NO_COLOR ? styleText(['bold', 'red'], 'CROSSED', { validateStream: false }) : 'CROSSED');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => rows.reduce((widest, r) => Math.max(widest, (r[i] ?? '').length), 0));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

const ms = (n: number): string => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

export function formatScenarioSummary(result: ScenarioResult): string {
  const header = ['name', 'requests', 'req/s', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'statuses'];
  const statuses = (codes: Record<string, number>): string => Object.entries(codes).map(([c, n]) => `${c}:${n}`).join(' ');
  const rows = [header];
  const seconds = result.requests > 0 && result.rps > 0 ? result.requests / result.rps : 0;
  const line = (name: string, requests: number, l: ScenarioResult['latency'], codes: Record<string, number>): string[] => [
    name,
    String(requests),
    seconds > 0 ? (requests / seconds).toFixed(0) : '0',
    ms(l.p50),
    ms(l.p90),
    ms(l.p95),
    ms(l.p99),
    ms(l.p999),
    ms(l.max),
    statuses(codes),
  ];
  rows.push(line('(all)', result.requests, result.latency, result.statusCodes));
  for (const [name, r] of Object.entries(result.byName)) rows.push(line(name, r.requests, r.latency, r.statusCodes));
  const errors = Object.entries(result.errors).map(([c, n]) => `${c}:${n}`).join(' ') || 'none';
  const out = [
    `scenario ${result.name} (${result.executor}): ${result.requests} requests, ${result.rps} req/s, dropped ${result.dropped}, rate-limited (429) ${result.rateLimited}, transport errors ${errors}`,
    result.executor.endsWith('arrival-rate') ? 'latency in ms, from each request\'s intended send time (open model)' : 'latency in ms, from send to answer (closed model)',
    table(rows),
  ];
  if (result.iterations) {
    const it = result.iterations;
    const failedBy = Object.entries(it.failedBy).map(([s, n]) => `${s}:${n}`).join(' ');
    out.push(`iterations: ${it.count} (${it.rate}/s), failed ${it.failed}${failedBy ? ` (by step: ${failedBy})` : ''}; iteration_duration p50 ${ms(it.duration.p50)} p95 ${ms(it.duration.p95)} p99 ${ms(it.duration.p99)} max ${ms(it.duration.max)} ms`);
  }
  if (result.metricsOutput) {
    const m = result.metricsOutput;
    out.push(`metrics output ${m.kind} ${m.url} (testid ${m.testid}): ${m.pushes} pushes, ${m.samplesSent} samples sent${m.failedPushes || m.samplesNotSent ? `, ${m.failedPushes} failed pushes, ${m.samplesNotSent} samples not sent${m.lastError ? ` (last error: ${m.lastError})` : ''}` : ''}`);
  }
  if (result.warmUp) {
    const w = result.warmUp;
    out.push(w.skipped ? `warm-up: no requests (${w.skipped})` : `warm-up (not counted): ${w.requests} requests on ${w.connections} connection(s) in ${w.durationMs.toFixed(0)} ms${w.errors ? `, ${w.errors} failed` : ''}`);
  }
  if (result.workers !== undefined && result.workers > 1) out.push(`workers: ${result.workers} (metrics merged exactly)`);
  if (result.generatorBound) out.push(`GENERATOR-BOUND: ${result.generatorBound.message}`);
  const expectation = result.rateLimitExpectation;
  if (expectation) {
    out.push(
      `rate limit: expected 429 fraction ${expectation.expectedFraction} (${expectation.credentials} credential(s) × ${expectation.perCredentialQuota} per ${expectation.windowSeconds} s at ${expectation.offeredRps} req/s), observed ${expectation.observedFraction} → ${expectation.ok ? 'ok' : `OFF by more than ±${expectation.tolerance}${expectation.edgeAllowance ? ` (−${expectation.edgeAllowance} more for the run's edges)` : ''}`}`,
    );
  }
  if (result.thresholds.length) {
    out.push('thresholds:');
    for (const t of result.thresholds) out.push(`  ${t.ok ? 'ok     ' : crossedMark()}  ${t.metric}: ${t.expr}  (actual ${t.actual})`);
  }
  return out.join('\n');
}

export function formatCapacity(result: CapacityResult): string {
  const rows = [['rate', 'achieved', 'p50', 'p99', 'errors', 'ok']];
  for (const s of result.steps) rows.push([String(s.rate), s.achievedRps.toFixed(0), ms(s.p50), ms(s.p99), `${(s.errorRate * 100).toFixed(2)}%`, s.ok ? (s.generatorBound ? 'yes (generator-bound)' : 'yes') : s.generatorBound ? 'no (generator-bound)' : 'no']);
  const slo = `SLO ${result.slo}, error budget ${(result.errorBudget * 100).toFixed(2)}%`;
  const verdict =
    result.ceiling === 'interrupted'
      ? `${interruptedText(result)} (${slo})`
      : result.ceiling === 'not-reached'
      ? `sustainable: at least ${result.sustainableRps} req/s — ceiling not reached (every step up to --max passed; raise --max to find the limit) (${slo})`
      : result.ceiling === 'generator-bound'
        ? `sustainable: at least ${result.sustainableRps} req/s — the target's limit was not measured: the first broken step was limited by the load generator itself (add --workers or a bigger machine) (${slo})`
        : `sustainable: ${result.sustainableRps} req/s (${slo})`;
  return `${table(rows)}\n${verdict}`;
}
