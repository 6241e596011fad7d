/**
 * What a k6 output file is, from its first bytes: gzip or not, then NDJSON, CSV or a JSON document (a k6 summary),
 * and where its samples begin in time.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { FileNotFoundError } from '../errors/harness-errors.ts';
import { csvTime, timeParser } from './sample-time.ts';
import type { RawFormat } from './sample-types.ts';

const GZIP_MAGIC = [0x1f, 0x8b];
const CSV_HEADER = 'metric_name,timestamp,metric_value';

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
