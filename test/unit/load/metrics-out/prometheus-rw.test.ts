/**
 * Prometheus remote write: the hand-encoded WriteRequest decodes back to the same series (a protobuf reader
 * written here from the wire format), the body is snappy-compressed, and the pusher stays bounded against a
 * server that never answers (a real node:http server on 127.0.0.1 that holds the request open).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uncompress } from 'snappyjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../../../src/load/metrics/recorder.ts';
import { k6Series } from '../../../../src/load/metrics-out/k6-series.ts';
import { displayUrl, parseMetricsOut, PrometheusRemoteWrite } from '../../../../src/load/metrics-out/prometheus-rw.ts';
import { encodeWriteRequest, type Series } from '../../../../src/load/metrics-out/remote-write-proto.ts';

/** Minimal protobuf reader: field number → list of raw values (varint as number, length-delimited as bytes, fixed64 as bytes). */
function fields(buf: Uint8Array): Map<number, Array<number | Uint8Array>> {
  const out = new Map<number, Array<number | Uint8Array>>();
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++]!;
      n += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) return n;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: number | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 1) {
      value = buf.slice(i, i + 8);
      i += 8;
    } else if (wire === 2) {
      const len = varint();
      value = buf.slice(i, i + len);
      i += len;
    } else throw new Error(`wire type ${wire}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

function decode(buf: Uint8Array): Series[] {
  const text = new TextDecoder();
  return (fields(buf).get(1) ?? []).map((ts) => {
    const f = fields(ts as Uint8Array);
    const labels: Record<string, string> = {};
    const names: string[] = [];
    for (const l of f.get(1) ?? []) {
      const lf = fields(l as Uint8Array);
      const name = text.decode(lf.get(1)![0] as Uint8Array);
      names.push(name);
      labels[name] = text.decode(lf.get(2)![0] as Uint8Array);
    }
    expect(names).toEqual([...names].sort());
    const samples = (f.get(2) ?? []).map((s) => {
      const sf = fields(s as Uint8Array);
      return { value: new DataView((sf.get(1)![0] as Uint8Array).buffer).getFloat64(0, true), timestampMs: sf.get(2)![0] as number };
    });
    return { labels, samples };
  });
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/write`;
}

function recorder(): Recorder {
  const r = new Recorder(['send', 'list']);
  r.record(0, 201, true, 12.5, 100);
  r.record(0, 201, true, 30, 200);
  r.record(1, 200, true, 3, 300);
  r.record(1, 500, false, 40, 400);
  r.recordError(1, 'ECONNRESET', 500);
  return r;
}

describe('remote write encoding', () => {
  it('a WriteRequest decodes back to its series, labels sorted', () => {
    const series: Series[] = [
      { labels: { __name__: 'k6_http_reqs_total', testid: 't', name: 'send', status: '201', scenario: 's' }, samples: [{ value: 2, timestampMs: 1_764_000_000_123 }] },
      { labels: { __name__: 'k6_http_req_duration_p99', name: 'ü/é', testid: 't', scenario: 's' }, samples: [{ value: 0.0305, timestampMs: 1_764_000_000_124 }] },
    ];
    expect(decode(encodeWriteRequest(series))).toEqual(series);
  });

  it("k6's names: counts per name and status (transport errors as status 0), trend stats in seconds", () => {
    const series = k6Series(recorder(), 'smoke', 'run-1', 1000);
    const get = (name: string, labels: Record<string, string>) => series.find((s) => s.labels.__name__ === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.samples[0]?.value;
    expect(get('k6_http_reqs_total', { name: 'send', status: '201' })).toBe(2);
    expect(get('k6_http_reqs_total', { name: 'list', status: '500' })).toBe(1);
    expect(get('k6_http_reqs_total', { name: 'list', status: '0' })).toBe(1);
    expect(get('k6_http_req_failed_rate', { name: 'list' })).toBeCloseTo(2 / 3, 12);
    expect(get('k6_http_req_duration_max', { name: 'send' })).toBeCloseTo(0.03, 4);
    expect(get('k6_iterations_total', {})).toBe(5);
    // All requests, across names: the series without a name label — 2 of 5 failed; p99 and max are the slowest (40 ms).
    const all = (name: string) => series.filter((s) => s.labels.__name__ === name && s.labels.name === undefined).map((s) => s.samples[0]!.value);
    expect(all('k6_http_req_failed_rate')).toEqual([2 / 5]);
    expect(all('k6_http_req_duration_p99')).toHaveLength(1);
    expect(all('k6_http_req_duration_p99')[0]).toBeCloseTo(0.04, 4);
    expect(all('k6_http_req_duration_med')[0]).toBeCloseTo(0.0125, 4);
    expect(all('k6_http_reqs_total')).toEqual([]);
    for (const s of series) expect(s.labels).toMatchObject({ scenario: 'smoke', testid: 'run-1' });
  });

  it('parses --metrics-out and never shows userinfo or query', () => {
    expect(parseMetricsOut('prometheus-rw=http://127.0.0.1:9090/api/v1/write').spec).toEqual({ kind: 'prometheus-rw', url: 'http://127.0.0.1:9090/api/v1/write' });
    expect(parseMetricsOut('otlp=http://x').problem).toMatch(/unknown metrics output "otlp"/);
    expect(parseMetricsOut('http://x').problem).toMatch(/KIND=URL/);
    expect(displayUrl('https://user:secret@prom.example/api/v1/write?token=abc')).toBe('https://prom.example/api/v1/write');
  });
});

describe('the pusher', () => {
  it('userinfo in the URL is sent as basic auth, never in the request line or the summary', async () => {
    let seen: IncomingMessage | undefined;
    const url = await listen((req, res) => {
      seen = req;
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    const withAuth = url.replace('http://', 'http://metrics%40user:s3cr%3At@');
    const summary = await new PrometheusRemoteWrite({ kind: 'prometheus-rw', url: withAuth, testid: 't' }, 'smoke').finish(recorder());
    expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('metrics@user:s3cr:t').toString('base64')}`);
    expect(seen?.url).toBe('/api/v1/write');
    expect(summary.pushes).toBe(1);
    expect(JSON.stringify(summary)).not.toMatch(/s3cr|metrics%40user/);
  });

  it('posts snappy-compressed protobuf with the remote-write headers', async () => {
    const bodies: Series[][] = [];
    let headers: IncomingMessage['headers'] = {};
    const url = await listen((req, res) => {
      headers = req.headers;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(decode(uncompress(new Uint8Array(Buffer.concat(chunks)))));
        res.writeHead(204).end();
      });
    });
    const pusher = new PrometheusRemoteWrite({ kind: 'prometheus-rw', url, testid: 'run-1' }, 'smoke');
    const summary = await pusher.finish(recorder());
    expect(headers).toMatchObject({ 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' });
    expect(summary).toMatchObject({ kind: 'prometheus-rw', testid: 'run-1', pushes: 1, failedPushes: 0, samplesNotSent: 0 });
    expect(summary.samplesSent).toBe(bodies[0]!.length);
  });

  it('a server that never answers: ticks never wait, one push in flight, the finish is bounded, everything counted', async () => {
    let requests = 0;
    const url = await listen(() => {
      requests++; // holds every request open
    });
    const pusher = new PrometheusRemoteWrite({ kind: 'prometheus-rw', url, testid: 't' }, 'smoke', { timeoutMs: 300, finishMs: 200 });
    const r = recorder();
    const perBatch = k6Series(r, 'smoke', 't', 0).length;
    const before = performance.now();
    for (let i = 0; i < 5; i++) pusher.tick(r);
    expect(performance.now() - before).toBeLessThan(250); // five ticks, none waited for the server (bound, not a timing claim)
    const started = performance.now();
    const summary = await pusher.finish(r);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(requests).toBeLessThanOrEqual(2);
    expect(summary.pushes).toBe(0);
    // Six batches, none delivered: the first in flight (unanswered at the bound), four replaced while waiting, the last left.
    expect(summary.samplesNotSent).toBe(6 * perBatch);
    expect(summary.samplesSent).toBe(0);
  });
});
