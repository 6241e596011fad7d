/**
 * Pathological inputs to `harness validate`: 15 000 unknown ids took 206 s, a 55 MB YAML 28 minutes and ignored
 * SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_BIN } from '../../helpers/cli.ts';
import { runMeasured } from '../../helpers/run-measured.ts';

describe('harness validate on pathological inputs', () => {
  const yamlWithUnknownIds = (count: number): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'harness-validate-')), 'harness.config.yaml');
    writeFileSync(file, `conformance:\n  skipChecks:\n${Array.from({ length: count }, (_, i) => `    - nosuch.check-${i}`).join('\n')}\n`);
    return file;
  };

  it('15 000 unknown check ids: every one reported with file:line, the child ends within its 60 s limit (206 s before)', async () => {
    const result = await runMeasured(['validate', yamlWithUnknownIds(15_000)], { timeoutMs: 60_000 });
    expect(result.code).toBe(104);
    expect(result.stderr.match(/unknown check id "nosuch\.check-\d+"/g)).toHaveLength(15_000);
    expect(result.stderr).toMatch(/harness\.config\.yaml:15002:7: conformance\.skipChecks\[14999\]/);
  }, 90_000);

  it('a file above the 8 MiB input cap is refused before it is parsed: exit 2 naming its size', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'harness-validate-')), 'huge.yaml');
    writeFileSync(file, `# ${'x'.repeat(9 * 1024 * 1024)}\n`);
    const result = await runMeasured(['validate', file], { timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/huge\.yaml: is 9\.0 MiB; config, suite and scenario files are read up to 8 MiB/);
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('SIGTERM ends a long validate at once (no handler waits for a free event loop)', async () => {
    // About 7 MiB of ids: below the cap, seconds of parsing and checking on any machine.
    const file = yamlWithUnknownIds(280_000);
    const child = spawn(process.execPath, [HARNESS_BIN, 'validate', file], { stdio: 'ignore' });
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1500));
    const sentAt = performance.now();
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) => child.on('exit', (code, signal) => resolvePromise({ code, signal })));
    child.kill('SIGTERM');
    const limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const { code, signal } = await ended;
    clearTimeout(limit);
    // Ended by the SIGTERM itself (not by the 30 s SIGKILL, not by finishing its work).
    expect(signal ?? code).toBe('SIGTERM');
    console.log(`validate ended ${Math.round(performance.now() - sentAt)} ms after SIGTERM`);
  }, 60_000);
});
