/**
 * Streaming readers for what k6 writes per sample: `k6 run --out json=FILE` (NDJSON) and `--out csv=FILE`, either
 * gzip'd (k6 gzips a file whose name ends in .gz; detected here by the gzip magic bytes, not the name). One pass,
 * chunk by chunk, so memory stays bounded whatever the file's size: only the samples the merge needs are parsed
 * (`http_req_duration`, one per request, `dropped_iterations`, and — for a sink that asks — `iteration_duration`
 * and `iterations`, read from their bytes without a JSON parse); every other line is recognised by its first
 * bytes and skipped (so a damaged skipped line is caught only when its k6 prefix or closing brace is gone). A line
 * that is not k6 output, a file cut short (a partial last line, a gzip stream that ends
 * early) or a foreign file is an error naming the file and the line.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ConfigError, FileNotFoundError } from '../errors.ts';

/** The longest line read (decompressed bytes); k6's sample lines are a few hundred bytes. @default 1 MiB */
export const MAX_LINE_BYTES = 1024 * 1024;

/** One request as k6 measured it: its `http_req_duration` sample. */
export interface RequestSample {
  /** Sample time, ms since the epoch (k6 stamps a request's sample when it completes). */
  timeMs: number;
  /** http_req_duration, ms (k6: from the request's actual start — sending + waiting + receiving). */
  durationMs: number;
  /** The `name` tag (k6 sets it to the URL when a script gives none). */
  name: string;
  /** HTTP status; 0 for a request that got no answer (then `errorCode` says why). */
  status: number;
  /** The `expected_response` tag: false is what k6 counts in http_req_failed. */
  expected: boolean;
  errorCode?: string;
  /** k6-operator tags every runner with `instance_id` (its index, 1-based). */
  instanceId?: string;
}

/**
 * The k6 metrics of a script's iterations: iteration_duration and iterations, one sample of each per iteration k6
 * completed, and the exported flow scripts' iterations_failed {step} (one per failed iteration).
 */
export type IterationMetric = 'iteration_duration' | 'iterations' | 'iterations_failed';

export interface SampleSink {
  request(sample: RequestSample): void;
  /** A `dropped_iterations` sample (`count` arrivals, usually 1). */
  dropped(timeMs: number, count: number, instanceId?: string): void;
  /**
   * An `iteration_duration` (ms), `iterations` or `iterations_failed` (count; `step`: its tag) sample; without this
   * method those lines are skipped.
   */
  iteration?(metric: IterationMetric, timeMs: number, value: number, step?: string): void;
}

export type RawFormat = 'json' | 'csv';

export interface ReadProgress {
  file: string;
  /** Bytes read from the file (compressed bytes for a gzip file) and its size. */
  bytes: number;
  size: number;
  lines: number;
  requests: number;
}

export interface ReadOptions {
  /** Called at most every `progressEveryMs` while a file is read, and once at its end. */
  progress?: (p: ReadProgress) => void;
  progressEveryMs?: number;
}

export interface ReadResult {
  format: RawFormat;
  gzip: boolean;
  lines: number;
  requests: number;
  /** Metric declarations (NDJSON only): metric name → the thresholds the script gave it. */
  declaredThresholds: Record<string, string[]>;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const CSV_HEADER = 'metric_name,timestamp,metric_value';

/** A sink refuses a sample (e.g. a request name the scenario does not have): the reader names the file and line. */
export class SampleRejected extends Error {}

export interface Sniff {
  gzip: boolean;
  kind: RawFormat | 'summary' | 'unknown';
  firstLine: string;
  /** The first sample's time (ms since the epoch), when the file's first 64 KiB hold one. */
  firstTimeMs?: number;
}

/** What a file is, from its first bytes: gzip or not, then NDJSON, CSV, or a JSON document (a k6 summary). */
export async function sniffFile(file: string): Promise<Sniff> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileNotFoundError(file, code === 'ENOENT' ? 'k6 summary or results file not found' : `cannot read k6 results (${code ?? String(err)})`);
  }
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    const gzip = bytesRead === 2 && magic[0] === GZIP_MAGIC[0] && magic[1] === GZIP_MAGIC[1];
    const head = await readHead(file, gzip);
    const firstLine = head.split('\n')[0] ?? '';
    const kind = kindOf(firstLine);
    const firstTimeMs = kind === 'json' || kind === 'csv' ? firstSampleTime(head, kind) : undefined;
    return { gzip, kind, firstLine, ...(firstTimeMs !== undefined ? { firstTimeMs } : {}) };
  } finally {
    await handle.close();
  }
}

function kindOf(firstLine: string): RawFormat | 'summary' | 'unknown' {
  const line = firstLine.replace(/^\uFEFF/, '').trim();
  if (line.startsWith(CSV_HEADER)) return 'csv';
  if (line.startsWith('{"type":"Metric"') || line.startsWith('{"metric":"')) return 'json';
  // A summary (--summary-export, handleSummary's JSON) is one JSON document: pretty-printed, or one long line.
  if (line === '{' || (line.startsWith('{') && /"metrics"\s*:/.test(line))) return 'summary';
  return 'unknown';
}

/** The first 64 KiB of text (decompressed), for the kind and the first sample's time. */
async function readHead(file: string, gzip: boolean): Promise<string> {
  const stream = createReadStream(file, { start: 0, end: 1024 * 1024 - 1 });
  const source = gzip ? stream.pipe(createGunzip()) : stream;
  let text = '';
  try {
    for await (const chunk of source) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length > 64 * 1024) break;
    }
  } catch {
    // A gzip stream cut inside the first megabyte still shows its first lines; a broken one shows nothing.
  } finally {
    stream.destroy();
  }
  return text;
}

/** Where a file's samples begin in time: the first sample line's time (k6 writes them about in order). */
function firstSampleTime(head: string, kind: RawFormat): number | undefined {
  const parse = timeParser();
  if (kind === 'json') {
    const time = /"type":"Point","data":\{"time":"([^"]+)"/.exec(head)?.[1];
    return time ? parse(time) : undefined;
  }
  const lines = head.split('\n');
  const column = (lines[0] ?? '').split(',').indexOf('timestamp');
  const value = lines[1]?.split(',')[column];
  const ms = value ? csvTime(value, parse) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** k6 writes RFC 3339 times with nanoseconds; Date.parse keeps milliseconds, so the fraction is read here. */
function timeParser(): (text: string) => number {
  let lastKey = '';
  let lastBase = NaN;
  return (text) => {
    // 2026-11-25T14:19:04.613097776Z or …+02:00: the whole seconds and the zone are parsed once per second.
    let end = 19;
    let fraction = 0;
    if (text.charCodeAt(19) === 46 /* . */) {
      end = 20;
      while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      fraction = Number(`0${text.slice(19, end)}`) * 1000;
    }
    const key = text.slice(0, 19) + text.slice(end);
    if (key !== lastKey) {
      lastKey = key;
      lastBase = Date.parse(key);
    }
    return lastBase + fraction;
  };
}

/** k6 CSV timestamps: unix seconds by default (K6_CSV_TIME_FORMAT: unix_milli, unix_micro, unix_nano, rfc3339…). */
function csvTime(text: string, parseTime: (t: string) => number): number {
  if (text.includes('T')) return parseTime(text);
  const n = Number(text);
  if (n < 1e11) return n * 1000;
  if (n < 1e14) return n;
  if (n < 1e17) return n / 1e3;
  return n / 1e6;
}

/** One CSV record's fields (RFC 4180 quoting, as Go's encoding/csv writes it). */
function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      i++; // the comma
    } else {
      const c = line.indexOf(',', i);
      const stop = c < 0 ? line.length : c;
      out.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return out;
}

const JSON_DURATION = '{"metric":"http_req_duration","type":"Point"';
const JSON_DROPPED = '{"metric":"dropped_iterations","type":"Point"';
const JSON_METRIC = '{"type":"Metric"';
const JSON_ANY = '{"metric":"';

const JSON_ITERATION_DURATION = '{"metric":"iteration_duration","type":"Point"';
const JSON_ITERATIONS = '{"metric":"iterations","type":"Point"';
const JSON_ITERATIONS_FAILED = '{"metric":"iterations_failed","type":"Point"';

const CSV_DURATION = Buffer.from('http_req_duration,');
const CSV_DROPPED = Buffer.from('dropped_iterations,');
const CSV_ITERATION_DURATION = Buffer.from('iteration_duration,');
const CSV_ITERATIONS = Buffer.from('iterations,');
const CSV_ITERATIONS_FAILED = Buffer.from('iterations_failed,');
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

function startsWithBytes(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix[i]) return false;
  return true;
}

type JsonKind = 'duration' | 'dropped' | IterationMetric | 'metric' | 'skip' | 'cut' | 'foreign';

/** An NDJSON line's kind from its bytes: the sample kinds the merge reads, a declaration, or one to skip. */
function jsonKind(buf: Buffer, start: number, end: number, iterations: boolean): JsonKind {
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
function iterationPoint(buf: Buffer, start: number, end: number, prefix: number, parseTime: (t: string) => number): { timeMs: number; value: number } | undefined {
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads one runner's file, calling `sink` for each request and each dropped arrival.
 * @throws ConfigError (exit 104) with file and line for a foreign, malformed or truncated file
 */
export async function readSamples(file: string, sink: SampleSink, options: ReadOptions = {}): Promise<ReadResult> {
  const sniff = await sniffFile(file);
  if (sniff.kind !== 'json' && sniff.kind !== 'csv') {
    const what = sniff.kind === 'summary' ? 'a k6 end-of-test summary (percentiles, which cannot be merged)' : `not k6 output (first line: ${JSON.stringify(sniff.firstLine.slice(0, 80))})`;
    throw new ConfigError([{ file, line: 1, path: '', message: `${what}; expected what \`k6 run --out json=FILE\` or \`--out csv=FILE\` writes (gzip'd or not)` }]);
  }
  const format = sniff.kind;
  const fail = (line: number, message: string): never => {
    throw new ConfigError([{ file, line, path: '', message }]);
  };
  const parseTime = timeParser();
  const declaredThresholds: Record<string, string[]> = {};
  let lines = 0;
  let requests = 0;
  let columns: { time: number; value: number; name: number; status: number; expected: number; errorCode: number; extra: number } | undefined;

  /** NDJSON: the line's kind from its first bytes, so the lines the merge does not need (12 of 15) are never decoded. */
  const iteration = sink.iteration?.bind(sink);
  const onJsonBytes = (buf: Buffer, start: number, end: number): void => {
    const kind = jsonKind(buf, start, end, iteration !== undefined);
    if (kind === 'skip') return;
    if (kind === 'cut') fail(lines, 'line cut short (no closing brace): the file is truncated or was still being written');
    if (kind === 'foreign') fail(lines, `not a k6 --out json line: ${JSON.stringify(buf.toString('utf8', start, Math.min(end, start + 80)))}`);
    if (kind === 'iteration_duration' || kind === 'iterations') {
      const point = iterationPoint(buf, start, end, (kind === 'iterations' ? JSON_ITERATIONS : JSON_ITERATION_DURATION).length, parseTime);
      if (point) return iteration!(kind, point.timeMs, point.value);
    }
    onJsonLine(buf.toString('utf8', start, end), kind);
  };

  const onJsonLine = (line: string, kind: JsonKind): void => {
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch (err) {
      fail(lines, `not JSON (${(err as Error).message}): the file is truncated or not k6 output`);
    }
    if (!isRecord(doc) || !isRecord(doc.data)) return fail(lines, 'a k6 --out json line without "data"');
    const data = doc.data;
    if (doc.type === 'Metric') {
      if (typeof data.name === 'string' && Array.isArray(data.thresholds)) declaredThresholds[data.name] = data.thresholds.filter((t): t is string => typeof t === 'string');
      return;
    }
    const tags = isRecord(data.tags) ? data.tags : {};
    if (typeof data.time !== 'string' || typeof data.value !== 'number') return fail(lines, 'a k6 sample without "time" and a numeric "value"');
    const timeMs = parseTime(data.time);
    if (!Number.isFinite(timeMs)) return fail(lines, `a sample time k6 would not write: ${JSON.stringify(data.time)}`);
    const instanceId = typeof tags.instance_id === 'string' ? tags.instance_id : undefined;
    if (kind === 'iteration_duration' || kind === 'iterations' || kind === 'iterations_failed') return iteration!(kind, timeMs, data.value, typeof tags.step === 'string' ? tags.step : undefined);
    if (kind !== 'duration') {
      sink.dropped(timeMs, data.value, instanceId);
      return;
    }
    requests++;
    const status = Number(tags.status ?? 0);
    sink.request({
      timeMs,
      durationMs: data.value,
      name: typeof tags.name === 'string' ? tags.name : typeof tags.url === 'string' ? tags.url : '',
      status: Number.isFinite(status) ? status : 0,
      expected: tags.expected_response === undefined ? status >= 200 && status < 400 : tags.expected_response === 'true',
      ...(typeof tags.error_code === 'string' && tags.error_code !== '' ? { errorCode: tags.error_code } : {}),
      ...(instanceId !== undefined ? { instanceId } : {}),
    });
  };

  const csvIteration = (buf: Buffer, start: number, end: number): boolean =>
    iteration !== undefined && buf[start] === 105 /* i */ && (startsWithBytes(buf, start, end, CSV_ITERATION_DURATION) || startsWithBytes(buf, start, end, CSV_ITERATIONS) || startsWithBytes(buf, start, end, CSV_ITERATIONS_FAILED));
  const onCsvBytes = (buf: Buffer, start: number, end: number): void => {
    if (columns && !startsWithBytes(buf, start, end, CSV_DURATION) && !startsWithBytes(buf, start, end, CSV_DROPPED) && !csvIteration(buf, start, end)) {
      const comma = buf.indexOf(44, start);
      if (comma < 0 || comma >= end) fail(lines, `not a k6 --out csv line: ${JSON.stringify(buf.toString('utf8', start, Math.min(end, start + 80)))}`);
      return;
    }
    onCsvLine(buf.toString('utf8', start, end));
  };

  const onCsvLine = (line: string): void => {
    if (!columns) {
      const header = line.replace(/^\uFEFF/, '').split(',');
      const at = (name: string): number => header.indexOf(name);
      columns = { time: at('timestamp'), value: at('metric_value'), name: at('name'), status: at('status'), expected: at('expected_response'), errorCode: at('error_code'), extra: at('extra_tags') };
      if (columns.time < 0 || columns.value < 0) fail(lines, 'a k6 CSV header without timestamp and metric_value');
      return;
    }
    const metric = line.slice(0, line.indexOf(','));
    let f: string[];
    try {
      f = csvFields(line);
    } catch (err) {
      return fail(lines, `${(err as Error).message}: the file is truncated or not k6 output`);
    }
    if (f.length < (columns.extra >= 0 ? columns.extra + 1 : 3)) fail(lines, `${f.length} fields where the header has more: the line is cut short (truncated file?)`);
    const timeMs = csvTime(f[columns.time] ?? '', parseTime);
    const value = Number(f[columns.value]);
    if (!Number.isFinite(timeMs) || !Number.isFinite(value)) fail(lines, 'a sample without a numeric timestamp and metric_value');
    const extra = columns.extra >= 0 ? (f[columns.extra] ?? '') : '';
    const instanceId = /(?:^|&)instance_id=([^&]*)/.exec(extra)?.[1];
    if (metric === 'iteration_duration' || metric === 'iterations') return iteration!(metric, timeMs, value);
    // A tag the CSV output has no column for (the flow scripts' step) is in extra_tags.
    if (metric === 'iterations_failed') return iteration!(metric, timeMs, value, /(?:^|&)step=([^&]*)/.exec(extra)?.[1]);
    if (metric !== 'http_req_duration') {
      sink.dropped(timeMs, value, instanceId);
      return;
    }
    requests++;
    const status = Number(columns.status >= 0 ? f[columns.status] || 0 : 0);
    const expectedText = columns.expected >= 0 ? f[columns.expected] : '';
    const errorCode = columns.errorCode >= 0 ? f[columns.errorCode] : '';
    sink.request({
      timeMs,
      durationMs: value,
      name: (columns.name >= 0 ? f[columns.name] : '') ?? '',
      status: Number.isFinite(status) ? status : 0,
      expected: expectedText ? expectedText === 'true' : status >= 200 && status < 400,
      ...(errorCode ? { errorCode } : {}),
      ...(instanceId !== undefined ? { instanceId } : {}),
    });
  };

  const onLine = format === 'json' ? onJsonBytes : onCsvBytes;
  const { size } = await stat(file);
  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  const source = sniff.gzip ? stream.pipe(createGunzip({ chunkSize: 1 << 20 })) : stream;
  // A read error is emitted on the file stream, a gzip error on the gunzip stream: both end the loop below.
  if (sniff.gzip) stream.on('error', (err) => (source as NodeJS.ReadableStream & { destroy(e?: Error): void }).destroy(err));
  const every = options.progressEveryMs ?? 2000;
  let lastProgress = Date.now();
  let carry: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of source) {
      // Lines are found in bytes (memchr); only the part of a line that spans two chunks is copied.
      const buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
        lines++;
        const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
        if (end > start) onLine(buf, start, end);
        start = nl + 1;
      }
      carry = start < buf.length ? Buffer.from(buf.subarray(start)) : Buffer.alloc(0);
      // k6 writes lines of a few hundred bytes: a line that has not ended in MAX_LINE_BYTES (decompressed) is not
      // k6 output, and keeping it would grow without bound (one endless line in a 1 MB gzip reached 2.9 GB).
      if (carry.length > MAX_LINE_BYTES) fail(lines + 1, `a line longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB${sniff.gzip ? ' (decompressed)' : ''} without a newline: not k6 output`);
      if (options.progress && Date.now() - lastProgress >= every) {
        lastProgress = Date.now();
        options.progress({ file, bytes: stream.bytesRead, size, lines, requests });
      }
    }
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if (err instanceof SampleRejected) fail(lines, err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || /unexpected end of file/i.test((err as Error).message)) {
      fail(lines + 1, `the gzip stream ${code === 'Z_DATA_ERROR' ? 'is corrupt' : 'ends early'} after line ${lines}: the file is truncated (was k6 still writing it, or the copy cut short?)`);
    }
    throw new FileNotFoundError(file, `cannot read k6 results (${code ?? (err as Error).message})`);
  }
  const rest = carry.toString('utf8');
  if (rest.trim() !== '') {
    lines++;
    // k6 ends every line with a newline: a last line without one was cut (unless it is whole, as a hand-made file may be).
    if (format === 'json') {
      try {
        JSON.parse(rest);
      } catch {
        fail(lines, 'the last line is cut short (no newline, not whole JSON): the file is truncated');
      }
    }
    const last = Buffer.from(rest.replace(/\r$/, ''), 'utf8');
    onLine(last, 0, last.length);
  }
  if (lines === 0) fail(1, 'empty file: no k6 samples');
  options.progress?.({ file, bytes: size, size, lines, requests });
  return { format, gzip: sniff.gzip, lines, requests, declaredThresholds };
}
