/**
 * A k6 sample line's kind from its first bytes, without parsing it: the sample kinds the merge reads, a metric
 * declaration, a line to skip, a cut one or a foreign one; and an iteration sample's time and value read in place.
 */
import type { IterationMetric } from './sample-types.ts';

const JSON_DURATION = '{"metric":"http_req_duration","type":"Point"';
const JSON_DROPPED = '{"metric":"dropped_iterations","type":"Point"';
const JSON_METRIC = '{"type":"Metric"';
const JSON_ANY = '{"metric":"';

export const JSON_ITERATION_DURATION = '{"metric":"iteration_duration","type":"Point"';
export const JSON_ITERATIONS = '{"metric":"iterations","type":"Point"';
const JSON_ITERATIONS_FAILED = '{"metric":"iterations_failed","type":"Point"';

export const CSV_DURATION = Buffer.from('http_req_duration,');
export const CSV_DROPPED = Buffer.from('dropped_iterations,');
export const CSV_ITERATION_DURATION = Buffer.from('iteration_duration,');
export const CSV_ITERATIONS = Buffer.from('iterations,');
export const CSV_ITERATIONS_FAILED = Buffer.from('iterations_failed,');
const B_JSON_DURATION = Buffer.from(JSON_DURATION);
const B_JSON_DROPPED = Buffer.from(JSON_DROPPED);
const B_JSON_ITERATION_DURATION = Buffer.from(JSON_ITERATION_DURATION);
const B_JSON_ITERATIONS = Buffer.from(JSON_ITERATIONS);
const B_JSON_ITERATIONS_FAILED = Buffer.from(JSON_ITERATIONS_FAILED);
const B_JSON_METRIC = Buffer.from(JSON_METRIC);
/** What follows the metric's prefix on every k6 sample line: the time, then the value. */
const B_JSON_TIME = Buffer.from(',"data":{"time":"');
const B_JSON_VALUE = Buffer.from('","value":');
const B_JSON_ANY = Buffer.from(JSON_ANY);

export function startsWithBytes(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix[i]) return false;
  return true;
}

export type JsonKind = 'duration' | 'dropped' | IterationMetric | 'metric' | 'skip' | 'cut' | 'foreign';

/** An NDJSON line's kind from its bytes: the sample kinds the merge reads, a declaration, or one to skip. */
export function jsonKind(buf: Buffer, start: number, end: number, iterations: boolean): JsonKind {
  // Every k6 sample line starts {"metric":"<name>"; the 12th byte tells the few names read apart from the rest.
  if (startsWithBytes(buf, start, end, B_JSON_ANY)) {
    const first = buf[start + 11];
    if (first === 104 /* h */ && startsWithBytes(buf, start, end, B_JSON_DURATION)) return 'duration';
    if (first === 100 /* d */ && startsWithBytes(buf, start, end, B_JSON_DROPPED)) return 'dropped';
    const whole = buf[end - 1] === 125; /* } */
    if (first === 105 /* i */ && iterations && whole) {
      if (startsWithBytes(buf, start, end, B_JSON_ITERATION_DURATION)) return 'iteration_duration';
      if (startsWithBytes(buf, start, end, B_JSON_ITERATIONS)) return 'iterations';
      if (startsWithBytes(buf, start, end, B_JSON_ITERATIONS_FAILED)) return 'iterations_failed';
    }
    return whole ? 'skip' : 'cut';
  }
  if (startsWithBytes(buf, start, end, B_JSON_METRIC)) return 'metric';
  return 'foreign';
}

/**
 * An iteration sample's time and value, read from the bytes k6 writes (`…,"data":{"time":"T","value":V,"tags":…`)
 * without parsing the line: a mix's script has as many iterations as requests, so these lines are as many as the
 * requests'. Undefined when the line is laid out otherwise (the caller then parses it whole).
 */
export function iterationPoint(buf: Buffer, start: number, end: number, prefix: number, parseTime: (t: string) => number): { timeMs: number; value: number } | undefined {
  const at = start + prefix;
  if (!startsWithBytes(buf, at, end, B_JSON_TIME)) return undefined;
  const timeStart = at + B_JSON_TIME.length;
  const quote = buf.indexOf(34 /* " */, timeStart);
  if (quote < 0 || quote >= end || !startsWithBytes(buf, quote, end, B_JSON_VALUE)) return undefined;
  const valueStart = quote + B_JSON_VALUE.length;
  let valueEnd = valueStart;
  while (valueEnd < end && buf[valueEnd] !== 44 /* , */ && buf[valueEnd] !== 125 /* } */) valueEnd++;
  const timeMs = parseTime(buf.toString('latin1', timeStart, quote));
  const value = Number(buf.toString('latin1', valueStart, valueEnd));
  return Number.isFinite(timeMs) && Number.isFinite(value) && valueEnd > valueStart ? { timeMs, value } : undefined;
}
