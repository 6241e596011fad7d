/**
 * The README's "certify your own implementation" steps, as a user runs them: `harness serve`, its exported
 * variables, `harness init --target`, then `harness validate` on the drafted file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../../helpers/cli.ts';

describe('harness init (command line)', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('drafts a config from a served reference target that `harness validate` accepts', async () => {
    const { child, banner, output } = await startServe();
    stop = () => child.kill('SIGTERM');
    const env = Object.fromEntries([...output().matchAll(/^export (HARNESS_\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(env.HARNESS_API_KEY).toBeDefined();
    const out = join(mkdtempSync(join(tmpdir(), 'harness-init-cli-')), 'harness.config.yaml');
    const init = await runCli(['init', '--target', banner.baseUrl, '--out', out], { env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`wrote ${out}`);
    expect(init.stdout).toContain(`next: harness run --config ${out}`);
    expect(readFileSync(out, 'utf8')).not.toContain(env.HARNESS_API_KEY!.slice(-16));
    const validate = await runCli(['validate', out], { env });
    expect(validate.code, validate.stderr + validate.stdout).toBe(0);
  });
});
