/**
 * The load engine over TLS (https:// targets), against real TLS servers on 127.0.0.1, port 0, with a certificate
 * made for this run by openssl (IP SAN 127.0.0.1; nothing is committed, nothing expires).
 *   - In this process: the sender (src/load/engine/h1/) verifies the certificate as Node does by default, so a
 *     certificate it has no reason to trust fails each request with the TLS error's code, once, and the sender
 *     stays usable.
 *   - As a user runs it: `harness load` against the reference target behind a TLS-terminating proxy, the
 *     certificate trusted the way Node documents for a private CA (NODE_EXTRA_CA_CERTS): the run is answered over
 *     TLS, keep-alive connections reused (far fewer TLS handshakes than requests), no error.
 * Nothing here asserts a duration.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRequest } from '../../../src/load/engine/h1/request-bytes.ts';
import { H1Sender, type SendOutcome } from '../../../src/load/engine/h1/sender.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { startReferenceTarget, type StartedTarget } from '../../../src/target/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { writeSpeedFreeSmoke } from '../../helpers/speed-free-scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-tls-'));
const certFile = join(dir, 'localhost.crt');
const keyFile = join(dir, 'localhost.key');
let cert: Buffer;
let key: Buffer;
/** Why there is no certificate: each test fails with it (never skipped), as the live-metrics test does for Prometheus. */
let problem: string | undefined;

beforeAll(() => {
  // A self-signed P-256 certificate for 127.0.0.1 (it is its own CA: trusting it is trusting the server).
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', '/CN=harness test', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile];
  try {
    execFileSync('openssl', args, { stdio: 'pipe' });
  } catch (err) {
    problem = `the TLS tests make their certificate with openssl (Debian package openssl), which failed: ${(err as Error).message}`;
    cert = key = Buffer.alloc(0);
    return;
  }
  cert = readFileSync(certFile);
  key = readFileSync(keyFile);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function listening<T extends net.Server>(server: T): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const closed = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

describe('the load sender over TLS', () => {
  let server: HttpsServer | undefined;
  let port = 0;
  beforeAll(async () => {
    if (problem) return;
    server = createHttpsServer({ cert, key }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    port = await listening(server);
  });
  afterAll(async () => {
    server?.closeAllConnections();
    if (server) await closed(server);
  });

  function get(s: H1Sender): Promise<SendOutcome> {
    return new Promise((resolve) => {
      let calls = 0;
      s.send(encodeRequest('GET', '/', s.host, {}, undefined), false, 30_000, (outcome) => {
        calls++;
        // A second call would mean one failure was reported twice (error and close both ending the request).
        setImmediate(() => (calls === 1 ? resolve(outcome) : resolve({ status: -1, error: `done called ${calls} times` })));
      });
    });
  }

  it('a certificate nobody vouches for fails every request with its TLS code, once each; nothing is answered', async () => {
    expect(problem, problem).toBeUndefined();
    const s = new H1Sender({ origin: `https://127.0.0.1:${port}`, connections: 1 });
    try {
      const first = await get(s);
      expect(first).toEqual({ status: 0, error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      // The sender stays usable: the next request opens a new connection and fails the same way.
      expect(await get(s)).toEqual({ status: 0, error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(s.inFlight).toBe(0);
    } finally {
      s.close();
    }
  });
});

describe('harness load against an https:// target', () => {
  let target: StartedTarget;
  let proxy: tls.Server | undefined;
  let proxyPort = 0;
  let handshakes = 0;
  beforeAll(async () => {
    if (problem) return;
    target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
    const upstream = new URL(target.baseUrl);
    // TLS terminated in front of the reference target, as a load balancer does: bytes pass through unchanged.
    proxy = tls.createServer({ cert, key }, (client) => {
      handshakes++;
      const server = net.connect(Number(upstream.port), upstream.hostname);
      client.pipe(server).pipe(client);
      const end = (): void => {
        client.destroy();
        server.destroy();
      };
      client.on('error', end).on('close', end);
      server.on('error', end).on('close', end);
    });
    proxyPort = await listening(proxy);
  });
  afterAll(async () => {
    if (proxy) await closed(proxy);
    await target?.close();
  });

  it('trusted through NODE_EXTRA_CA_CERTS: every request answered over TLS, on kept-alive connections', async () => {
    expect(problem, problem).toBeUndefined();
    const creds = credentialsFromReference(target.credentials);
    const config = join(dir, 'harness.config.yaml');
    writeFileSync(config, ['credentials:', `  apiKey: ${creds.apiKey}`, `  loadKey: ${creds.loadKey}`, `  restrictedKey: ${creds.restrictedKey}`, `  secondKey: ${creds.secondKey}`, ''].join('\n'));
    // The shipped smoke load with only its speed-free threshold: this test is about trust and kept-alive TLS.
    writeSpeedFreeSmoke(dir);
    const out = join(dir, 'reports');
    const result = await runCli(['load', '--scenario', 'smoke', '--target', `https://127.0.0.1:${proxyPort}`, '--config', config, '--out', out, '--no-progress'], {
      cwd: dir,
      env: { NODE_EXTRA_CA_CERTS: certFile },
      timeoutMs: 90_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    const [runId] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, runId!, 'report.json'), 'utf8'));
    const [scenario] = report.scenarios;
    expect(report.run.target.baseUrl).toBe(`https://127.0.0.1:${proxyPort}`);
    expect(scenario.errors).toEqual({});
    expect(scenario.requests).toBeGreaterThan(0);
    expect(scenario.statusCodes['200'] ?? 0).toBeGreaterThan(0);
    // Kept alive: the warm-up's and the run's requests on at most maxVUs (20) connections each, plus the preflight's.
    const answered = scenario.requests + (scenario.warmUp?.requests ?? 0);
    expect(handshakes).toBeLessThan(answered / 2);
  }, 120_000);
});
