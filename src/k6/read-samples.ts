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
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ConfigError, FileNotFoundError } from '../errors/harness-errors.ts';
import { CSV_DROPPED, CSV_DURATION, CSV_ITERATION_DURATION, CSV_ITERATIONS, CSV_ITERATIONS_FAILED, iterationPoint, JSON_ITERATION_DURATION, JSON_ITERATIONS, jsonKind, startsWithBytes, type JsonKind } from './line-kinds.ts';
import { csvFields, csvTime, timeParser } from './sample-time.ts';
import { MAX_LINE_BYTES, SampleRejected, type ReadOptions, type ReadResult, type SampleSink } from './sample-types.ts';
import { sniffFile } from './sniff.ts';

export * from './sample-types.ts';
export { sniffFile, type Sniff } from './sniff.ts';

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
