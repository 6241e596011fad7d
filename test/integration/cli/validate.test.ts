import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

describe('harness validate', () => {
  it('accepts the shipped harness.config.yaml', async () => {
    const result = await runCli(['validate']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('harness.config.yaml: valid config file\n');
  });

  it('names file, line, path and a suggestion for a misspelt key, exit 104, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-validate-'));
    writeFileSync(join(dir, 'bad.yaml'), 'target:\n  timeoutMs: 5000\n  baseUrll: http://127.0.0.1:9\n');
    const result = await runCli(['validate', 'bad.yaml'], { cwd: dir });
    expect(result.code).toBe(104);
    expect(result.stderr).toBe('error: 1 problem found:\n  bad.yaml:3:3: target.baseUrll: unknown key "baseUrll" (did you mean "baseUrl"?)\n');
    expect(result.stdout).toBe('');
  });

  it('a missing file: exit 2 with a one-line message', async () => {
    const result = await runCli(['validate', 'no-such-file.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: no-such-file\.yaml: /);
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });
});

describe('usage errors', () => {
  // Each row: the arguments, the exit code, the stream, how its text is compared and the text.
  it.each([
    ['an unknown flag exits 2', ['run', '--no-such-flag'], 2, 'stderr', 'toContain', "unknown option '--no-such-flag'"],
    ['a bad flag value names the flag and exits 2', ['serve', '--port', 'abc'], 2, 'stderr', 'toBe', 'error: --port: expected a whole number, got "abc"\n'],
    ['--config naming a missing file exits 2', ['run', '--config', 'missing.yaml'], 2, 'stderr', 'toBe', 'error: missing.yaml: config file not found (--config)\n'],
    ['an unknown suite exits 2 with a suggestion', ['run', '--suite', 'smok'], 2, 'stderr', 'toContain', 'unknown suite "smok" (did you mean "smoke"?)'],
    ['--help lists the exit codes', ['--help'], 0, 'stdout', 'toContain', '104  invalid config, suite or scenario file'],
  ] as const)('%s', async (_name, args, code, stream, compare, text) => {
    const result = await runCli([...args]);
    expect(result.code).toBe(code);
    expect(result[stream])[compare](text);
  });
});
