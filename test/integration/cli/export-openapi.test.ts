/** `harness export openapi` as a user runs it: the file it writes, and a config whose error schema is missing. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

describe('harness export openapi', () => {
  it('writes the document as JSON to stdout and as YAML to a .yaml file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-openapi-'));
    const printed = await runCli(['export', 'openapi', '--server', 'http://127.0.0.1:8080']);
    expect(printed.code).toBe(0);
    const doc = JSON.parse(printed.stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe('http://127.0.0.1:8080');
    const out = join(dir, 'openapi.yaml');
    const written = await runCli(['export', 'openapi', '--out', out]);
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(out);
    // No --server and no target.baseUrl in the shipped config: "/" (no generator bakes it in), and it says so.
    expect(written.stderr).toMatch(/note: servers is "\/" \(no --server, no target\.baseUrl\)/);
    expect(parse(readFileSync(out, 'utf8')).servers).toEqual([{ url: '/', description: expect.stringContaining('a generated client needs one set') }]);
    expect(printed.stderr).not.toMatch(/note: servers/);
    expect(parse(readFileSync(out, 'utf8')).paths['/v1/whatsapp/messages'].post.operationId).toBe('sendMessage');
  });

  it('exits 104 naming api when the error schema file cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-openapi-'));
    const config = join(dir, 'harness.config.yaml');
    writeFileSync(config, 'api:\n  errorSchema: ./missing.json\n');
    const result = await runCli(['export', 'openapi', '--config', config]);
    expect(result.code).toBe(104);
    expect(result.stderr).toMatch(/api.*missing\.json/s);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
