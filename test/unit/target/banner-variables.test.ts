/**
 * README: `harness serve` prints every variable the shipped harness.config.yaml reads. The list is derived from the
 * file itself (every `${HARNESS_…}`, commented examples included), so a variable added there without a printed
 * value or a stated reason fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_PRINTED, credentialBanner } from '../../../src/target/banner.ts';
import { createCredentials } from '../../../src/target/credentials.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const configText = readFileSync(join(REPO_ROOT, 'harness.config.yaml'), 'utf8');
const configVariables = [...new Set([...configText.matchAll(/\$\{(HARNESS_[A-Z0-9_]+)/g)].map((m) => m[1]!))];

function printed(jwtSigningKey?: string): { exported: Record<string, string>; explained: string[] } {
  const creds = createCredentials({});
  const { env } = credentialBanner(creds, 'http://127.0.0.1:1234', jwtSigningKey !== undefined ? { jwtSigningKey } : {});
  const exported: Record<string, string> = {};
  for (const m of env.matchAll(/^export (HARNESS_[A-Z0-9_]+)='((?:[^']|'\\'')*)'$/gm)) exported[m[1]!] = m[2]!.replace(/'\\''/g, "'");
  const explained = [...env.matchAll(/^# not printed: ([A-Z0-9_ ]+): .+$/gm)].flatMap((m) => m[1]!.split(' '));
  // Nothing else: every line is an export or a reason (eval reads the first, skips the second).
  expect(env.split('\n').filter((l) => !/^export HARNESS_|^# not printed: /.test(l))).toEqual([]);
  return { exported, explained };
}

describe('serve\'s variables for the shipped harness.config.yaml', () => {
  it('the file reads credentials, reference credentials and commented examples: the list is not empty', () => {
    expect(configVariables).toEqual(expect.arrayContaining(['HARNESS_API_KEY', 'HARNESS_JWT_KEY', 'HARNESS_REFERENCE_API_KEY', 'HARNESS_WEBHOOK_SECRET']));
  });

  it('prints every variable the file reads, or says why not: each exactly once', () => {
    const { exported, explained } = printed('a-test-only-signing-key');
    expect([...Object.keys(exported), ...explained].sort()).toEqual([...configVariables].sort());
    expect(new Set(explained).size).toBe(explained.length);
  });

  it('states no reason for a variable the file does not read (no stale entries)', () => {
    const stale = NOT_PRINTED.flatMap((g) => g.names).filter((name) => !configVariables.includes(name));
    expect(stale).toEqual([]);
  });

  it('values are the target\'s own credentials, quoted for a POSIX shell', () => {
    const { exported } = printed("it's-a-key-with-a-quote");
    expect(exported.HARNESS_JWT_KEY).toBe("it's-a-key-with-a-quote");
    expect(exported.HARNESS_API_KEY).toMatch(/^sk_live_/);
  });
});
