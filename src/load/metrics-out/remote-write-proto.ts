/**
 * Prometheus remote write 1.0's WriteRequest, encoded by hand: the message is four fields deep and fixed
 * (prometheus/prompb/remote.proto, types.proto), so a protobuf library would add more than it saves.
 *
 *   WriteRequest { repeated TimeSeries timeseries = 1; }
 *   TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *   Label        { string name = 1; string value = 2; }
 *   Sample       { double value = 1; int64 timestamp = 2; }   // timestamp: ms since the epoch
 */

export interface Series {
  /** Label name → value; `__name__` is the metric name. Encoded sorted by name, as the protocol requires. */
  labels: Record<string, string>;
  samples: Array<{ value: number; timestampMs: number }>;
}

class Writer {
  #chunks: number[] = [];
  varint(n: number): void {
    // Non-negative integers up to 2^53 (timestamps, lengths): 7 bits a byte, low first.
    let v = n;
    while (v >= 0x80) {
      this.#chunks.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.#chunks.push(v);
  }
  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }
  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    for (const b of data) this.#chunks.push(b);
  }
  double(field: number, value: number): void {
    this.tag(field, 1);
    const buf = new DataView(new ArrayBuffer(8));
    buf.setFloat64(0, value, true);
    for (let i = 0; i < 8; i++) this.#chunks.push(buf.getUint8(i));
  }
  int64(field: number, value: number): void {
    this.tag(field, 0);
    this.varint(value);
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.#chunks);
  }
}

const utf8 = new TextEncoder();

function label(name: string, value: string): Uint8Array {
  const w = new Writer();
  w.bytes(1, utf8.encode(name));
  w.bytes(2, utf8.encode(value));
  return w.finish();
}

function sample(value: number, timestampMs: number): Uint8Array {
  const w = new Writer();
  w.double(1, value);
  w.int64(2, Math.max(0, Math.round(timestampMs)));
  return w.finish();
}

export function encodeWriteRequest(series: readonly Series[]): Uint8Array {
  const out = new Writer();
  for (const s of series) {
    const ts = new Writer();
    for (const name of Object.keys(s.labels).sort()) ts.bytes(1, label(name, s.labels[name] as string));
    for (const p of s.samples) ts.bytes(2, sample(p.value, p.timestampMs));
    out.bytes(1, ts.finish());
  }
  return out.finish();
}
