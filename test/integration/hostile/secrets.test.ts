/**
 * A target that echoes every secret in pieces (both halves of each long one, in two fields and two headers) and
 * every short one encoded (base64, hex, form) under secret-word names and as whole values: none of it may reach
 * report.json, report.html, junit.xml, the HAR or the console. Both halves of 8 long secrets and the 5-character
 * password's encodings were once in every file; so were the halves of secrets with separators in them.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMeasured } from '../../helpers/run-measured.ts';
import { CONFIG, expectClean, hostileTargets, reportOf, SUITES } from './lib/hostile-run.ts';

const hostile = hostileTargets();

describe('split and encoded secrets echoed by the target never reach an output', () => {
  it('run --har against an echo of halves and encodings: no half, no encoding in any file; the report stays readable', async () => {
    const long = ['sk_hostile_full_key_0001', 'sk_hostile_restricted_0001', 'sk_hostile_second_0001', 'sk_hostile_load_key_0001'];
    const short = ['pw5x!'];
    const target = await hostile.start('split-secrets', { secrets: { long, short } });
    const dir = mkdtempSync(join(tmpdir(), 'harness-split-'));
    const config = join(dir, 'harness.config.yaml');
    writeFileSync(
      config,
      // The echo answers at once: a 5 s timeout, so a loaded machine cannot turn its preflight into "unreachable".
      CONFIG.replace('timeoutMs: 400', 'timeoutMs: 5000').replace('loadKey: sk_hostile_load_key_0001', `loadKey: ${long[3]}`).replace('password: hostile-password-0001', `password: '${short[0]}'`),
    );
    const out = join(dir, 'reports');
    const har = join(dir, 'traffic.har');
    const result = await runMeasured(['run', '--no-load', '--target', target.baseUrl, '--config', config, '--out', out, '--quiet', '--suite', SUITES, '--har', har], { timeoutMs: 90_000 });
    expectClean(result);
    const report = reportOf(out);
    const runDir = join(out, readdirSync(out)[0]!);
    const files = { 'report.json': readFileSync(join(runDir, 'report.json'), 'utf8'), 'report.html': readFileSync(join(runDir, 'report.html'), 'utf8'), 'junit.xml': readFileSync(join(runDir, 'junit.xml'), 'utf8'), har: readFileSync(har, 'utf8'), stdout: result.stdout };
    const pieces = [
      ...long.flatMap((s) => [s.slice(0, Math.floor(s.length / 2)), s.slice(Math.floor(s.length / 2))]),
      ...short.flatMap((s) => [Buffer.from(s).toString('base64'), Buffer.from(s).toString('hex'), encodeURIComponent(s)]),
    ];
    for (const [file, text] of Object.entries(files)) for (const piece of pieces) expect(text.includes(piece), `${file} holds ${piece}`).toBe(false);
    // Readable: the target's ordinary fields and the checks' own words are still there.
    expect(files['report.json']).toContain('second part follows');
    expect(report.checks.length).toBeGreaterThan(10);
    expect(report.checks.some((c: any) => c.status === 'failed' && /expected/.test(c.message ?? ''))).toBe(true);
  }, 120_000);
});

describe('secrets with separators in them, split in halves by the target', () => {
  const PASSWORD = 'P@ss w0rd/+&=~!x';
  const CLIENT_SECRET = 'cs/Sec+ret=~!x y_0123456789';

  it('run --har: no half, in any encoding echoed, and no piece of 8 characters (two kinds or more) in report.json, report.html, junit.xml, the HAR or the console', async () => {
    const target = await hostile.start('split-secrets', { secrets: { long: [PASSWORD, CLIENT_SECRET], short: [] }, encodedHalves: true });
    const dir = mkdtempSync(join(tmpdir(), 'harness-split-sep-'));
    const config = join(dir, 'harness.config.yaml');
    const oauth = `  oauth:\n    clientId: hostile-client\n    clientSecret: ${JSON.stringify(CLIENT_SECRET)}\n    redirectUri: http://127.0.0.1:9/cb\n`;
    writeFileSync(config, CONFIG.replace('timeoutMs: 400', 'timeoutMs: 5000').replace('password: hostile-password-0001', `password: ${JSON.stringify(PASSWORD)}\n${oauth}`));
    const out = join(dir, 'reports');
    const har = join(dir, 'traffic.har');
    const result = await runMeasured(['run', '--no-load', '--target', target.baseUrl, '--config', config, '--out', out, '--suite', 'smoke,auth', '--har', har], { timeoutMs: 90_000 });
    expectClean(result);
    // The checks ran (no HAR is written for a target unreachable at the preflight): their traffic is what is scanned.
    expect(result.code, result.stdout).not.toBe(3);
    const report = reportOf(out);
    const runDir = join(out, readdirSync(out)[0]!);
    const files = { 'report.json': readFileSync(join(runDir, 'report.json'), 'utf8'), 'report.html': readFileSync(join(runDir, 'report.html'), 'utf8'), 'junit.xml': readFileSync(join(runDir, 'junit.xml'), 'utf8'), har: readFileSync(har, 'utf8'), console: result.stdout + result.stderr };
    const kinds = (s: string): number => [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(s)).length;
    const leaks: string[] = [];
    for (const secret of [PASSWORD, CLIENT_SECRET]) {
      const half = Math.floor(secret.length / 2);
      for (const piece of [secret.slice(0, half), secret.slice(half)]) {
        for (const encoded of [piece, encodeURIComponent(piece), JSON.stringify(piece).slice(1, -1), Buffer.from(piece).toString('base64')]) {
          for (const [file, text] of Object.entries(files)) if (text.includes(encoded)) leaks.push(`${file}: ${encoded}`);
        }
      }
      // A piece of 8 characters of one kind only (digits: 01234567) is an ordinary word of every report.
      for (let i = 0; i + 8 <= secret.length; i++) {
        const piece = secret.slice(i, i + 8);
        if (kinds(piece) < 2) continue;
        for (const [file, text] of Object.entries(files)) if (text.includes(piece)) leaks.push(`${file}: ${piece}`);
      }
    }
    expect(leaks).toEqual([]);
    // The target did echo them (the run saw the fields), and the report stays readable.
    expect(target.requests()).toBeGreaterThan(5);
    expect(files['report.json']).toContain('second part follows');
    expect(report.checks.length).toBeGreaterThan(10);
  }, 120_000);
});

