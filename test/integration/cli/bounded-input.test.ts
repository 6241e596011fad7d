/**
 * Every file a user names is read bounded by the bytes actually read, whatever kind of file it is. stat's size is 0
 * for a device: `harness validate /dev/zero` grew by 100 MB a second and never ended; `compare` and `import k6` read
 * /dev/urandom whole (1.2 GB); one endless line in a 1 MB gzip of k6 samples grew to 2.9 GB. Each case runs the
 * real CLI in a child process (killed at its limit, failing the test) and measures its peak memory.
 */
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runMeasured, type MeasuredResult } from '../../helpers/run-measured.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-bounded-input-'));
/** Far below what an unbounded read reached (GBs), above what the 128 MiB report cap and Node itself may take. */
const PEAK_RSS_KIB = 512 * 1024;

function expectRefused(result: MeasuredResult, code: number, message: RegExp): void {
  const output = `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
  expect(result.code, output).toBe(code);
  expect(result.stderr, output).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  expect(result.peakRssKiB, `peak RSS ${Math.round(result.peakRssKiB / 1024)} MiB`).toBeLessThanOrEqual(PEAK_RSS_KIB);
}

describe('devices and endless files named on the command line', { timeout: 90_000 }, () => {
  it.each([
    ['validate /dev/zero', ['validate', '/dev/zero'], '/dev/zero'],
    ['validate /dev/urandom', ['validate', '/dev/urandom'], '/dev/urandom'],
    ['run --config /dev/zero', ['run', '--config', '/dev/zero', '--no-load'], '/dev/zero'],
  ])('%s → exit 2: read up to 8 MiB, then refused naming the file and the bound', async (_name, args, file) => {
    const result = await runMeasured(args, { timeoutMs: 60_000 });
    expectRefused(result, 2, new RegExp(`${file}: holds more than 8 MiB \\(stopped reading there\\); config, suite and scenario files are read up to 8 MiB`));
  });

  it.each([
    ['compare /dev/zero /dev/zero', ['compare', '/dev/zero', '/dev/zero', '--out', join(dir, 'cmp')], /\/dev\/zero: holds more than 128 MiB \(stopped reading there\); report files are read up to 128 MiB/],
    ['import k6 /dev/urandom', ['import', 'k6', '/dev/urandom', '--out', join(dir, 'imp')], /\/dev\/urandom: holds more than 64 MiB \(stopped reading there\); k6 summaries are read up to 64 MiB/],
  ])('%s → exit 2 naming the bound, memory bounded', async (_name, args, message) => {
    const result = await runMeasured(args, { timeoutMs: 60_000 });
    expectRefused(result, 2, message);
  });

  it('import k6 of gzip\'d samples holding one endless line → exit 104 naming file:line, memory bounded', async () => {
    const file = join(dir, 'endless.json.gz');
    const metric = '{"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time","thresholds":[],"submetrics":null},"metric":"http_req_duration"}\n';
    const point = '{"metric":"http_req_duration","type":"Point","data":{"time":"2026-11-27T10:00:00.000Z","value":1.5,"tags":{"name":"send","status":"201","expected_response":"true"}}}\n';
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    // 256 MiB of one line, written a chunk at a time (the test holds 1 MiB), about 250 KB once compressed.
    async function* lines(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${metric}${point}{"metric":"http_req_duration","type":"Point","data":{"x":"`);
      for (let i = 0; i < 256; i++) yield chunk;
    }
    await pipeline(Readable.from(lines()), createGzip({ level: 9 }), createWriteStream(file));
    const result = await runMeasured(['import', 'k6', file, '--scenario', 'smoke', '--out', join(dir, 'endless')], { timeoutMs: 60_000 });
    expectRefused(result, 104, /endless\.json\.gz:3: a line longer than 1 MiB \(decompressed\) without a newline: not k6 output/);
  });
});
