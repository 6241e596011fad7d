/**
 * `harness init` on bad input, as a user runs it: each case ends with a sentence naming what is wrong, its
 * documented exit code, no stack trace, and no file written (an existing file left as it was).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

const KEY = 'sk_live_init_bad_input_0123456789abcdef';
const servers: Server[] = [];

function serve(handler: (path: string) => { status: number; type: string; body: string }): Promise<string> {
  const server = createServer((req, res) => {
    const { status, type, body } = handler(req.url ?? '/');
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function init(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'harness-init-bad-'));
  const result = await runCli(['init', '--out', join(dir, 'harness.config.yaml'), ...args], { env: { HARNESS_API_KEY: KEY } });
  return { ...result, dir, files: readdirSync(dir) };
}

/** `text` written as `name` in a fresh temporary folder: the document a test hands to --openapi. */
function documentFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'harness-init-doc-')), name);
  writeFileSync(file, text);
  return file;
}

function expectClean(result: { stdout: string; stderr: string }): void {
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout + result.stderr).not.toContain(KEY.slice(8, 16));
}

describe('harness init: bad input', () => {
  it('an unreachable target: exit 3, nothing written', async () => {
    const url = await serve(() => ({ status: 200, type: 'text/plain', body: '' }));
    await new Promise((r) => { servers.pop()!.close(r); });
    const result = await init(['--target', url]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`target ${url} is unreachable`);
    expect(result.files).toEqual([]);
    expectClean(result);
  });

  it('a target that answers nothing but 401: exit 2, names the credential, nothing written', async () => {
    const url = await serve(() => ({ status: 401, type: 'application/json', body: '{"error":"unauthorized"}' }));
    const result = await init(['--target', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/answered 401 to every request made with HARNESS_API_KEY/);
    expect(result.files).toEqual([]);
    expectClean(result);
  });

  it('a document that is not OpenAPI (file and loopback URL): exit 104, says what it found', async () => {
    const swagger = documentFile('swagger.json', JSON.stringify({ swagger: '2.0', paths: {} }));
    const file = await init(['--openapi', swagger]);
    expect(file.code).toBe(104);
    expect(file.stderr).toContain('not an OpenAPI 3.0 or 3.1 document (Swagger 2.0');
    expect(file.files).toEqual([]);

    const url = await serve(() => ({ status: 200, type: 'text/html', body: '<html><body>hello</body></html>' }));
    const served = await init(['--openapi', `${url}/openapi.yaml`]);
    expect(served.code).toBe(104);
    expect(served.stderr).toMatch(/not an OpenAPI document|not an OpenAPI 3\.0 or 3\.1 document/);
    expect(served.files).toEqual([]);
    expectClean(served);
  });

  it('a document of another API: exit 104, nothing written', async () => {
    const pets = documentFile('pets.yaml', 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths:\n  /pets:\n    get:\n      responses: {"200": {description: ok}}\n');
    const result = await init(['--openapi', pets]);
    expect(result.code).toBe(104);
    expect(result.stderr).toContain('a document of another API');
    expect(result.files).toEqual([]);
    expectClean(result);
  });

  it('an existing file without --force: exit 2, the file left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-init-exists-'));
    const out = join(dir, 'harness.config.yaml');
    writeFileSync(out, '# mine\n');
    const url = await serve(() => ({ status: 200, type: 'application/json', body: '{}' }));
    const result = await runCli(['init', '--target', url, '--out', out], { env: { HARNESS_API_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('exists; init never overwrites it without --force');
    expect(readFileSync(out, 'utf8')).toBe('# mine\n');
    expect(existsSync(join(dir, 'harness.error-schema.json'))).toBe(false);
  });

  it('neither --target nor --openapi: exit 2, and --help documents the exit codes', async () => {
    const result = await init([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs --target URL');
    const help = await runCli(['init', '--help']);
    expect(help.stdout).toMatch(/Exit codes of init:[\s\S]*104/);
  });
});
