/**
 * `harness probe ratelimit` against a target that does not answer: unreachable before the probe (a listener that
 * accepts and never answers, a closed port) or lost while probed (answers, then stops). Each ends with exit 3 and
 * a report that says so, as `run` and `load` do, never with "no limit observed".
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import { ExitCode } from '../../../src/errors/exit-codes.ts';
import { runProbeJob } from '../../../src/job/probe-job.ts';
import { headlineOf } from '../../../src/report/headline.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { runCli } from '../../helpers/cli.ts';
import { closedPort } from '../../helpers/closed-port.ts';

/** A short request deadline: the preflight and each probe request give up after it. */
const TIMEOUT_MS = 600;
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Accepts connections, reads what is sent and never writes a byte. */
async function silentListener(): Promise<{ baseUrl: string; accepted: () => number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: NetServer = createNetServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  }));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, accepted: () => accepted };
}

/** Answers the first `answered` requests with an empty page, then holds every later one without an answer. */
async function goesSilentAfter(answered: number): Promise<{ baseUrl: string; received: () => number }> {
  let received = 0;
  const server: HttpServer = createHttpServer((req, res) => {
    received += 1;
    req.resume();
    if (received <= answered) res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"nextCursor":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, received: () => received };
}

function probeConfig(baseUrl: string) {
  const out = mkdtempSync(join(tmpdir(), 'probe-unreachable-'));
  return { out, config: configFromObject({ target: { baseUrl, timeoutMs: TIMEOUT_MS }, report: { outDir: out } }) };
}

describe('harness probe ratelimit against a target that does not answer', () => {
  it('a listener that accepts and never answers is unreachable at the preflight: exit 3, and a report that says so', async () => {
    const target = await silentListener();
    const { out, config } = probeConfig(target.baseUrl);
    const lines: string[] = [];
    const outcome = await runProbeJob({ config, credential: 'none', maxRps: 50, budgetRequests: 100, budgetSeconds: 5, log: (l) => lines.push(l) });
    expect(target.accepted()).toBeGreaterThan(0);
    expect(outcome.exitCode).toBe(ExitCode.TargetUnreachable);
    expect(outcome.result).toBeUndefined();
    expect(reportIssues(outcome.report)).toEqual([]);
    expect(outcome.report.run.aborted).toMatchObject({ code: 'HARNESS_ERR_TARGET_UNREACHABLE', message: expect.stringContaining(`no complete answer within ${TIMEOUT_MS} ms`) });
    expect(outcome.report.rateLimit).toBeUndefined();
    expect(headlineOf(outcome.report).title).toBe('TARGET UNREACHABLE (exit 3)');
    expect(lines.join('\n')).not.toMatch(/no limit observed/);
    expect(lines.at(-1)).toMatch(/^error: target http:\/\/127\.0\.0\.1:\d+ is unreachable/);
    const [runId] = readdirSync(out);
    expect(readdirSync(join(out, runId!)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
  }, 30_000);

  it('a target that answers the preflight and then stops answering is lost: exit 3, and the report keeps what was measured', async () => {
    // The preflight and two probe requests are answered; the third probe request is held past its deadline.
    const target = await goesSilentAfter(3);
    const { config } = probeConfig(target.baseUrl);
    const lines: string[] = [];
    const outcome = await runProbeJob({ config, credential: 'none', maxRps: 50, budgetRequests: 100, budgetSeconds: 5, log: (l) => lines.push(l) });
    expect(outcome.exitCode).toBe(ExitCode.TargetUnreachable);
    expect(reportIssues(outcome.report)).toEqual([]);
    expect(outcome.report.run.aborted).toMatchObject({
      code: 'HARNESS_ERR_TARGET_LOST',
      message: expect.stringMatching(/lost during the probe: request 3 got no HTTP response \(.+\) after 2 answered/),
    });
    expect(outcome.result?.requests).toBe(2);
    expect(outcome.report.rateLimit).toBeDefined();
    expect(headlineOf(outcome.report).title).toBe('TARGET LOST during the run (exit 3)');
    expect(lines.at(-1)).toMatch(/^error: target http:\/\/127\.0\.0\.1:\d+ lost during the probe/);
  }, 30_000);

  it('`harness probe ratelimit --target` on a closed port exits 3 and still writes its report', async () => {
    const port = await closedPort();
    const out = mkdtempSync(join(tmpdir(), 'probe-refused-cli-'));
    const result = await runCli(['probe', 'ratelimit', '--target', `http://127.0.0.1:${port}`, '--credential', 'none', '--budget-seconds', '5', '--out', out]);
    expect(result.code, result.stderr).toBe(ExitCode.TargetUnreachable);
    expect(result.stdout).toMatch(/error: target http:\/\/127\.0\.0\.1:\d+ is unreachable: ECONNREFUSED/);
    expect(result.stdout).not.toMatch(/no limit observed/);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    expect(reportIssues(report)).toEqual([]);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_UNREACHABLE');
  }, 60_000);
});
