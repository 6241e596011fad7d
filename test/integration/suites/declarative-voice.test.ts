/**
 * Declarative suites end to end: suites/voice.example.yaml against a target that implements its voice endpoints
 * (every check passes) and against targets that each break one rule (exactly the checks for that rule fail, with
 * the verdict their level implies). The checks run through the same runner as the built-ins: levels, evidence
 * with curl commands, redaction and the coverage matrix included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { registryFor } from '../../../src/cli/registry-for-config.ts';
import { configFromObject } from '../../../src/config/index.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';
import { failedIds } from '../../helpers/run-harness.ts';
import { startVoiceTarget, type VoiceFault } from '../../targets/voice-target.ts';

const SUITE_FILE = join(REPO_ROOT, 'suites/voice.example.yaml');
const VOICE_CHECKS = ['voice.create-call', 'voice.call-readable', 'voice.create-requires-credential', 'voice.challenge-on-401', 'voice.invalid-number-rejected'];

async function runVoice(fault?: VoiceFault) {
  const target = await startVoiceTarget(fault);
  try {
    const config = configFromObject({
      target: { baseUrl: target.baseUrl },
      credentials: { apiKey: target.apiKey },
      conformance: { suites: ['voice'], suiteFiles: [SUITE_FILE] },
      report: { outDir: mkdtempSync(join(tmpdir(), 'harness-voice-')) },
    });
    const outcome = await runJob({ config, registry: registryFor(config), log: () => {} });
    return { outcome, apiKey: target.apiKey };
  } finally {
    await target.close();
  }
}

describe('declarative voice suite', () => {
  it('a target that implements the voice endpoints passes every check, levelled and reported like the built-ins', async () => {
    const { outcome } = await runVoice();
    const { report } = outcome;
    expect(report.checks.map((c) => [c.id, c.status, c.message])).toEqual(VOICE_CHECKS.map((id) => [id, 'passed', undefined]));
    expect(report.checks.find((c) => c.id === 'voice.create-requires-credential')).toMatchObject({ suite: 'voice', level: 'MUST', specRef: 'SERVICE-SPEC §5 rule 5, §7 (401)' });
    expect(report.verdict).toBe('selection-passed'); // the voice suite alone: not the whole catalogue
    expect(outcome.exitCode).toBe(0);
    const voice = report.coverage.clauses.find((c: { id: string }) => c.id === '§1.voice');
    expect(voice?.checks).toEqual(expect.arrayContaining(['voice.create-call', 'voice.call-readable']));
  });

  const cases: Array<{ fault: VoiceFault; failing: string[]; verdict: string; message: RegExp }> = [
    { fault: 'create-200', failing: ['voice.call-readable', 'voice.create-call'], verdict: 'selection-passed', message: /the request \(POST \/v1\/voice\/calls\): answered 200, expected 201/ },
    { fault: 'no-auth', failing: ['voice.challenge-on-401', 'voice.create-requires-credential'], verdict: 'not-certified', message: /answered 201, expected 401/ },
    { fault: 'wrong-id', failing: ['voice.call-readable'], verdict: 'selection-passed', message: /^read \(GET \/v1\/voice\/calls\/call_[^)]+\): \/id is "call_[^"]+", expected "call_/ },
  ];
  for (const c of cases) {
    it(`a target with fault ${c.fault} fails exactly ${c.failing.join(', ')} (${c.verdict}), with evidence and no secret`, async () => {
      const { outcome, apiKey } = await runVoice(c.fault);
      expect(failedIds(outcome)).toEqual(c.failing);
      expect(outcome.report.verdict).toBe(c.verdict);
      const failed = outcome.report.checks.filter((r) => r.status === 'failed');
      expect(failed.some((r) => c.message.test(r.message ?? ''))).toBe(true);
      for (const r of failed) {
        expect(r.evidence?.exchanges.length).toBeGreaterThan(0);
        for (const exchange of r.evidence!.exchanges) expect(exchange.curl).toMatch(/^curl /);
      }
      const written = readFileSync(join(outcome.runDir, 'report.json'), 'utf8');
      expect(written).not.toContain(apiKey);
    });
  }
});
