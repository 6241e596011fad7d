/**
 * `harness history --add` and `harness compare --history` against real reference targets (`harness serve` on port
 * 0), as CI would run them: runs of the plain target recorded as label "main", then a candidate from the same
 * target and one from a target 60 ms slower compared with that history. What is asserted does not depend on the
 * machine's speed: a history of one run cannot decide yet; foreign, corrupt and future-format files are named and
 * skipped; every decision names the runs it compared with; the identical build is never exceeded; the slower build
 * is never within, and is exceeded (exit 1) unless the run measured its own stalls, when it says why (exit 0).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, stop } from '../../helpers/cli.ts';

type Served = Awaited<ReturnType<typeof startServe>>;
interface Compared {
  gate: string;
  budgets: Array<{ scenario?: string; status: string; detail: string; reason?: string }>;
  history: { baselines: Array<{ scenario: string; runs: string[] }>; skipped: Array<{ file: string; why: string }> };
}

const dir = mkdtempSync(join(tmpdir(), 'harness-history-'));
const history = join(dir, 'history');
let plain: Served;
let slow: Served;

beforeAll(async () => {
  // One after the other: two starting at once on a loaded 2-core runner can outlast startServe's bound.
  plain = await startServe();
  slow = await startServe(['--inject-latency', '60']);
}, 60_000);

afterAll(async () => {
  await Promise.all([plain, slow].filter(Boolean).map((s) => stop(s.child)));
});

/** `harness load --scenario gate` for 4 s (200 requests: p50 is decidable, p95 not); resolves with its report.json. */
async function load(served: Served, name: string): Promise<string> {
  const out = join(dir, name);
  const result = await runCli(['load', '--scenario', 'gate', '--duration', '4s', '--target', served.banner.baseUrl as string, '--out', out, '--no-progress'], {
    env: { HARNESS_LOAD_KEY: served.banner.credentials.apiKeys.load as string },
    timeoutMs: 90_000,
  });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return join(out, readdirSync(out)[0]!, 'report.json');
}

const compare = (candidate: string, out: string) =>
  runCli(['compare', '--history', history, '--label', 'main', candidate, '--budget', 'p50:+10ms,failed:0', '--out', join(dir, out)]);
const compared = (out: string): Compared => JSON.parse(readFileSync(join(dir, out, 'compare.json'), 'utf8')) as Compared;

describe('harness compare --history against reference targets', () => {
  it('records runs with label and CI commit, names bad files, decides from three runs and says which', async () => {
    const first = await load(plain, 'base-1');
    const added = await runCli(['history', history, '--add', first, '--label', 'main', '--out', join(dir, 'trend-1')], { env: { GITHUB_SHA: 'a1b2c3d4e5f6', GITHUB_REF_NAME: 'main' } });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/history: added run \S+ as .*\(label main, commit a1b2c3d4e5f6, branch main\)/);
    expect(added.stdout).toContain('cannot decide yet: change points need at least 6 runs of a series, it has 1');
    // The same report twice: refused (append-only), exit 2.
    const again = await runCli(['history', history, '--add', first, '--label', 'main']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is already in .* a history is append-only/);

    writeFileSync(join(history, 'notes.txt'), 'not a run');
    writeFileSync(join(history, 'broken.json'), '{"historyEntry": 1, "meta": {');
    writeFileSync(join(history, 'newer.json'), JSON.stringify({ historyEntry: 2, meta: {}, report: {} }));
    writeFileSync(join(history, 'package.json'), JSON.stringify({ name: 'foreign' }));
    mkdirSync(join(history, 'sub.json'));

    const candidate = await load(plain, 'cand-same');
    const one = await compare(candidate, 'cmp-one');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/p50:\+10ms: inconclusive: cannot decide yet: the history has 1 usable run to compare with, the gate needs at least 3/);
    expect(one.stdout).toContain('history: skipped notes.txt: not a .json file');
    expect(one.stdout).toContain('history: skipped broken.json: corrupt: not JSON');
    expect(one.stdout).toContain('history: skipped newer.json: future format: history entry version 2, this harness reads 1');
    expect(one.stdout).toContain('history: skipped package.json: foreign: not a history entry or report.json');
    expect(one.stdout).toContain('history: skipped sub.json: not a regular file');

    for (const name of ['base-2', 'base-3']) {
      const added = await runCli(['history', history, '--add', await load(plain, name), '--label', 'main', '--out', join(dir, `trend-${name}`)]);
      expect(added.code, added.stderr).toBe(0);
    }

    const same = await compare(candidate, 'cmp-same');
    const sameResult = compared('cmp-same').budgets.find((b) => b.scenario === 'gate')!;
    expect(sameResult.status, sameResult.detail).not.toBe('exceeded');
    expect(same.code, same.stdout).toBe(0);
    expect(sameResult.detail).toMatch(/compared with the last 3 runs of label "main" with scenario "gate" \(at most 10\): /);
    expect(compared('cmp-same').history.baselines[0]!.runs).toHaveLength(3);

    const slower = await compare(await load(slow, 'cand-slow'), 'cmp-slow');
    const slowResult = compared('cmp-slow').budgets.find((b) => b.scenario === 'gate')!;
    expect(slowResult.status, slowResult.detail).not.toBe('within');
    if (slowResult.status === 'exceeded') {
      expect(slower.code, slower.stdout).toBe(1);
      expect(slower.stdout).toMatch(/gate: FAILED/);
    } else {
      // The machine measured stalls or spread that cover 60 ms: said, with the reason, never a failure.
      expect(slower.code, slower.stdout).toBe(0);
      expect(slowResult.reason).toMatch(/^(the load generator stalled|the machine's scheduling|the candidate stalled|the runs' spread covers the limit)/);
    }
    expect(slowResult.detail).toContain('compared with the last 3 runs of label "main"');
  }, 600_000);

  it('usage errors: --history takes one candidate; --label without --history; a missing folder', async () => {
    const two = await runCli(['compare', '--history', history, 'a.json', 'b.json', '--out', join(dir, 'u1')]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--history: give exactly one report (the candidate)');
    const label = await runCli(['compare', 'a.json', 'b.json', '--label', 'main', '--out', join(dir, 'u2')]);
    expect(label.code).toBe(2);
    expect(label.stderr).toContain('--label and --last go with --history');
    const missing = await runCli(['history', join(dir, 'nowhere'), '--out', join(dir, 'u3')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere: history folder not found/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
