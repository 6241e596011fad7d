/**
 * What the harness keeps of a body is bounded by its own caps, in memory, whatever the body's bytes: a cut is a
 * copy (a `String.slice` view kept the whole original alive — a 4 KiB cut of a 1 MiB two-byte body pinned 2 MiB,
 * and thousands of them drove `harness run` out of memory), budgets count bytes rather than characters, and a body
 * with a Content-Encoding is never inflated. Whether a string is a view is read from V8 itself (%DebugPrint's map
 * type, in a child process started with --allow-natives-syntax), not guessed from timing or heap sizes.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COLLECT_EVERY_BYTES, ENCODED_KEEP_BYTES, KEEP_BODY_BYTES, readBody } from '../../../src/http/body-reader.ts';
import { copyPrefix, cutBody, heldBytes, LOG_BODY_BUDGET, recordExchange, withExchangeLog, type Exchange } from '../../../src/http/exchange.ts';
import { TrafficLog } from '../../../src/conformance/traffic.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { gzipBomb, nonAsciiBody } from '../../targets/hostile/servers.ts';

const stream = (buffer: Buffer, chunk = 64 * 1024): Readable =>
  Readable.from(Array.from({ length: Math.ceil(buffer.length / chunk) }, (_, i) => buffer.subarray(i * chunk, (i + 1) * chunk)));

describe('cuts are copies, not views of the original', () => {
  it('copyPrefix, cutBody and a check log over its budget leave no sliced or cons string behind (V8 map types)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-slice-'));
    const script = join(dir, 'probe.mjs');
    const src = (file: string): string => pathToFileURL(join(REPO_ROOT, file)).href;
    writeFileSync(
      script,
      `const { copyPrefix, cutBody, recordExchange, withExchangeLog, LOG_BODY_BUDGET } = await import(${JSON.stringify(src('src/http/exchange.ts'))});
const print = new Function('s', '%DebugPrint(s)');
const twoByte = Buffer.alloc(1 << 20, 0xff).toString('utf8');
const oneByte = 'a'.repeat(1 << 20);
const label = (name) => print('@@' + name);
label('copy-two-byte'); print(copyPrefix(twoByte, 4096));
label('copy-one-byte'); print(copyPrefix(oneByte, 4096));
label('slice-control'); print(twoByte.slice(0, 4096));
const cut = cutBody(twoByte);
label('cut-prefix'); print(copyPrefix(cut, 10));
const { exchanges } = await withExchangeLog(async () => {
  for (let i = 0; i < Math.ceil(LOG_BODY_BUDGET / (3 << 20)) + 2; i++)
    recordExchange({ startedAt: '', durationMs: 0, request: { method: 'GET', url: 'http://x/', headers: {} }, response: { status: 200, headers: {}, body: Buffer.alloc(1 << 20, 0xff).toString('utf8') } });
});
label('log-cut'); print(exchanges[0].response.body);
`,
    );
    // %DebugPrint writes through C stdio: into a pipe, what it buffered last is lost at exit; a file keeps it all.
    const outFile = join(dir, 'out.txt');
    const fd = openSync(outFile, 'w');
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], { cwd: REPO_ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    expect(child.status, child.stderr).toBe(0);
    const output = readFileSync(outFile, 'utf8');
    // One DebugPrint block per value; a label's block names the value printed in the block after it.
    const blocks = output.split('DebugPrint: ');
    const typeOf = (name: string): string => {
      const at = blocks.findIndex((block) => block.includes(`@@${name}`));
      const part = at >= 0 ? (blocks[at + 1] ?? '') : '';
      return /- type: (\w+)/.exec(part)?.[1] ?? `no type printed for ${name}: ${output.slice(0, 500)}`;
    };
    // The control shows the probe can see a view; the rest must be flat strings of their own.
    expect(typeOf('slice-control')).toBe('SLICED_STRING_TYPE');
    expect(typeOf('copy-two-byte')).toMatch(/^(STRING_TYPE|ONE_BYTE_STRING_TYPE|INTERNALIZED_STRING_TYPE)$/);
    expect(typeOf('copy-one-byte')).toMatch(/^(STRING_TYPE|ONE_BYTE_STRING_TYPE|INTERNALIZED_STRING_TYPE)$/);
    expect(typeOf('log-cut')).toMatch(/^(STRING_TYPE|ONE_BYTE_STRING_TYPE)$/);
  });

  it('copyPrefix keeps the text and never splits a surrogate pair', () => {
    expect(copyPrefix('héllo wörld', 5)).toBe('héllo');
    expect(copyPrefix('日本語テキスト', 3)).toBe('日本語');
    expect(copyPrefix('ab😀cd', 3)).toBe('ab');
    expect(copyPrefix('short', 100)).toBe('short');
    expect(cutBody('x'.repeat(5000))).toMatch(/^x{4096}… \[904 more characters cut\]$/);
  });
});

describe('memory counted in bytes', () => {
  it('a 2 MiB non-ASCII body keeps at most KEEP_BODY_BYTES of memory (half as many characters), and says so', async () => {
    const body = nonAsciiBody();
    const read = await readBody(stream(body));
    expect(read.bytes).toBe(body.length);
    expect(read.truncated).toBe(true);
    // Two bytes per character in V8 for text above U+00FF.
    expect(read.text.length * 2).toBeLessThanOrEqual(KEEP_BODY_BYTES);
    expect(read.text.length).toBeGreaterThan(KEEP_BODY_BYTES / 4);
  });

  it('an ordinary ASCII or Latin-1 answer is kept whole', async () => {
    const json = JSON.stringify({ data: [{ id: 'msg_1', text: 'café über naïve' }], pagination: { next: null } });
    const read = await readBody(stream(Buffer.from(json)));
    expect(read).toEqual({ text: json, bytes: Buffer.byteLength(json), truncated: false });
    const cjk = JSON.stringify({ text: '日本語のメッセージ' });
    expect((await readBody(stream(Buffer.from(cjk)))).text).toBe(cjk);
  });

  it('a gzip bomb is never inflated: a body with a Content-Encoding keeps its first bytes only', async () => {
    const bomb = gzipBomb(2);
    const read = await readBody(stream(bomb), undefined, undefined, { contentEncoding: 'gzip' });
    expect(read.bytes).toBe(bomb.length);
    expect(read.truncated).toBe(true);
    expect(Buffer.byteLength(read.text)).toBeLessThanOrEqual(ENCODED_KEEP_BYTES * 3);
    const plain = await readBody(stream(Buffer.from('{"a":1}')), undefined, undefined, { contentEncoding: 'identity' });
    expect(plain.text).toBe('{"a":1}');
  });

  it("a check's log budget and the traffic log count bytes: two-byte bodies are not held at twice the budget", async () => {
    const twoByte = (): string => Buffer.alloc(1 << 20, 0xff).toString('utf8');
    const made = (): Exchange => ({ startedAt: '', durationMs: 0, request: { method: 'GET', url: 'http://x/', headers: {} }, response: { status: 200, headers: {}, body: twoByte() } });
    const { exchanges } = await withExchangeLog(async () => {
      for (let i = 0; i < 30; i++) recordExchange(made());
    });
    const held = exchanges.reduce((n, e) => n + heldBytes(e.response?.body), 0);
    expect(held).toBeLessThanOrEqual(LOG_BODY_BUDGET + 3 * (1 << 20));
    expect(exchanges[0]!.response!.truncatedFrom).toBe(3 << 20);
    const traffic = new TrafficLog({ maxKeptBytes: 8 << 20 });
    traffic.record('c', Array.from({ length: 10 }, made));
    // 3 MiB of UTF-8 each (U+FFFD): two fit in 8 MiB, where counting characters would have kept seven.
    expect(traffic.exchanges).toHaveLength(2);
    expect(traffic.total).toBe(10);
  });
});

describe('full collections follow what is kept, not what is received', () => {
  it('bodies read past their kept part ask for no full collection; bodies kept whole do, every COLLECT_EVERY_BYTES', () => {
    // A child of its own: the collector is the engine's gc (--expose-gc), counted before the reader first calls it.
    const dir = mkdtempSync(join(tmpdir(), 'harness-collect-'));
    const script = join(dir, 'probe.mjs');
    writeFileSync(
      script,
      `const real = globalThis.gc;
let calls = 0;
globalThis.gc = () => { calls++; real(); };
const { readBody } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'src/http/body-reader.ts')).href)});
const { Readable } = await import('node:stream');
const chunk = Buffer.alloc(64 * 1024, 0x61);
const body = (bytes) => Readable.from(Array.from({ length: bytes / chunk.length }, () => chunk));
// A gzip bomb's shape: 2 MiB received, 4 KiB kept, 64 times (128 MiB received in all).
for (let i = 0; i < 64; i++) await readBody(body(2 << 20), undefined, undefined, { contentEncoding: 'gzip' });
const afterDiscarded = calls;
// 1 MiB kept whole (and its text), 40 times.
for (let i = 0; i < 40; i++) await readBody(body(1 << 20));
console.log(JSON.stringify({ afterDiscarded, afterKept: calls - afterDiscarded }));
`,
    );
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const { afterDiscarded, afterKept } = JSON.parse(child.stdout.trim().split('\n').pop()!);
    expect(afterDiscarded).toBe(0);
    // 40 × (1 MiB of bytes + 1 MiB for its one-byte text): at least one collection per COLLECT_EVERY_BYTES.
    expect(afterKept).toBeGreaterThanOrEqual(Math.floor((40 * 2 * (1 << 20)) / COLLECT_EVERY_BYTES));
    expect(afterKept).toBeGreaterThan(0);
  });

  it('a body above half the cap that is all ASCII is kept to the cap as one-byte text; one with two-byte text keeps half', async () => {
    const ascii = await readBody(stream(Buffer.alloc(3 * KEEP_BODY_BYTES, 'a')));
    expect(ascii).toEqual({ text: 'a'.repeat(KEEP_BODY_BYTES), bytes: 3 * KEEP_BODY_BYTES, truncated: true });
    // A Latin-1 character (two UTF-8 bytes, one-byte in V8) past the front keeps the cap too; U+00FF and above halves it.
    const latin = Buffer.concat([Buffer.from('é'), Buffer.alloc(KEEP_BODY_BYTES, 'a')]);
    expect((await readBody(stream(latin))).text).toHaveLength(KEEP_BODY_BYTES - 1);
    const wide = Buffer.concat([Buffer.from('日'), Buffer.alloc(KEEP_BODY_BYTES, 'a')]);
    expect((await readBody(stream(wide))).text).toHaveLength(1 + KEEP_BODY_BYTES / 2 - 3);
  });
});
