/**
 * The bad-input corpus: broken configs, scenarios and flags a hostile reviewer tried. Each case, on the real CLI:
 * the documented exit code, a clean line that names the file:line or the flag, no stack trace, no "internal
 * error", and `harness validate` rejects what `harness run` rejects. No case reaches any target (none is given
 * or listening).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-bad-input-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  let previous = 'a';
  for (const name of 'bcdefghi') {
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    previous = name;
  }
  return `${lines.join('\n')}\n`;
}

function expectClean(result: CliResult, code: number, line: RegExp): void {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.code, output).toBe(code);
  expect(result.stderr.split('\n').some((l) => line.test(l)), output).toBe(true);
  expect(output).not.toMatch(/internal error|Maximum call stack|\n\s+at .+:\d+:\d+/);
}

const configs = {
  bomb: file('bomb.yaml', aliasBomb()),
  deep: file('deep.yaml', `target: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`),
  unknownSuite: file('unknown-suite.yaml', 'conformance:\n  suites: [smoke, nosuch]\n'),
  unknownSkip: file('unknown-skip.yaml', 'conformance:\n  skipChecks:\n    - smoke.nope\n'),
  missingSchema: file('missing-schema.yaml', 'api:\n  errorSchema: ./no-such-schema.json\n'),
  passwdSchema: file('passwd-schema.yaml', `api:\n  errorSchema: ${file('secret.txt', 'root:x:0:0:sk_live_do_not_print:/root:/bin/bash\n')}\n`),
  notSchema: file('not-schema.yaml', `api:\n  errorSchema: ${file('list.json', '[1, 2, 3]')}\n`),
  wrongLevel: file('wrong-level.yaml', 'baseUrl: http://127.0.0.1:1\n'),
};
const scenarios = {
  hugeVus: file('huge-vus.yaml', 'executor: constant-vus\nvus: 100000000\nduration: 1s\nrequests:\n  - operation: list\n'),
  hugeRate: file('huge-rate.yaml', 'executor: constant-arrival-rate\nrate: 1000000000\nduration: 1s\npreAllocatedVUs: 1\nrequests:\n  - operation: list\n'),
  bomb: file('scenario-bomb.yaml', `executor: constant-vus\nvus: 1\nduration: 1s\nrequests:\n  - operation: list\n${aliasBomb()}`),
};
const regularFile = file('a-file', 'not a folder');

describe('bad input: configs, through both validate and run', { timeout: 90_000 }, () => {
  it.each([
    ['YAML alias bomb', configs.bomb, 104, /bomb\.yaml:\d+:\d+: invalid YAML: aliases expand to more than 100 nodes/],
    ['20,000 nested brackets', configs.deep, 104, /deep\.yaml:1:\d+: invalid YAML: nested too deeply/],
    ['an unknown skipChecks id', configs.unknownSkip, 104, /unknown-skip\.yaml:3:7: conformance\.skipChecks\[0\]: unknown check id "smoke\.nope"/],
    ['a missing api.errorSchema', configs.missingSchema, 104, /missing-schema\.yaml:2:\d+: api\.errorSchema: cannot read schema file .*no such file/],
    ['api.errorSchema naming a file that is not JSON', configs.passwdSchema, 104, /passwd-schema\.yaml:2:\d+: api\.errorSchema: .* is not a JSON file/],
    ['api.errorSchema naming JSON that is not a schema', configs.notSchema, 104, /not-schema\.yaml:2:\d+: api\.errorSchema: .* is JSON but not a JSON Schema/],
    ['a key at the wrong level', configs.wrongLevel, 104, /wrong-level\.yaml:1:1: baseUrl: unknown key "baseUrl" \(did you mean "target\.baseUrl"\?\)/],
  ])('%s', async (_name, config, code, line) => {
    const validate = await runCli(['validate', config]);
    expectClean(validate, code, line);
    const run = await runCli(['run', '--no-load', '--config', config, '--out', join(dir, 'reports')]);
    expectClean(run, code, line);
    // Never the bytes of a file mistaken for a schema.
    expect(`${validate.stdout}${validate.stderr}${run.stdout}${run.stderr}`).not.toContain('sk_live_do_not_print');
  });

  it('an unknown suite in the config: validate and run both reject it, naming it', async () => {
    expectClean(await runCli(['validate', configs.unknownSuite]), 104, /unknown-suite\.yaml:2:\d+: conformance\.suites: unknown suite "nosuch"/);
    expectClean(await runCli(['run', '--no-load', '--config', configs.unknownSuite, '--out', join(dir, 'reports')]), 2, /unknown suite "nosuch"/);
  });
});

describe('bad input: flags and scenarios', { timeout: 60_000 }, () => {
  it.each([
    ['--suite ",,,"', ['run', '--suite', ',,,'], 2, /--suite: expected one or more comma-separated names, got ",,,"/],
    ['--scenario ","', ['load', '--scenario', ','], 2, /--scenario: expected one or more comma-separated names/],
    ['--out below a regular file', ['run', '--no-load', '--out', join(regularFile, 'reports')], 2, /cannot write reports to ".*a-file\/reports" \(--out \/ report\.outDir\): a part of the path is a regular file/],
    ['--out under /proc', ['run', '--no-load', '--out', '/proc/harness-reports'], 2, /cannot write reports to "\/proc\/harness-reports".*pseudo-filesystem/],
    ['--out under /proc for load', ['load', '--scenario', 'smoke', '--out', '/proc/harness-reports'], 2, /cannot write reports to "\/proc\/harness-reports"/],
    ['vus: 100000000', ['load', '--scenario', scenarios.hugeVus], 104, /huge-vus\.yaml:2:6: vus: must be <= 10000: .*harness export k6/],
    ['rate: 1000000000', ['load', '--scenario', scenarios.hugeRate], 104, /huge-rate\.yaml:2:7: rate: must be <= 100000 per timeUnit/],
    ['--rate 1e9', ['load', '--scenario', 'smoke', '--rate', '1e9'], 2, /--rate: must be <= 100000 per timeUnit/],
    ['--workers many', ['load', '--scenario', 'smoke', '--workers', 'many'], 2, /--workers: expected a whole number or "auto", got "many"/],
    ['--workers 0', ['capacity', '--scenario', 'smoke', '--workers', '0'], 2, /--workers: must be between 1 and 256, got 0/],
    ['a scenario alias bomb', ['load', '--scenario', scenarios.bomb], 104, /scenario-bomb\.yaml:\d+:\d+: invalid YAML: aliases expand/],
  ])('%s', async (_name, args, code, line) => {
    expectClean(await runCli(args as string[]), code as number, line as RegExp);
  });

  it('validate rejects the scenario with vus: 100000000 too', async () => {
    expectClean(await runCli(['validate', scenarios.hugeVus]), 104, /huge-vus\.yaml:2:6: vus: must be <= 10000/);
  });
});
