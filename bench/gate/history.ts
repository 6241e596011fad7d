/**
 * bench/gate --history: the CI gate recipe with a history (docs/ci-gate.md "A gate against history"), N rounds.
 * Three reference targets (`harness serve`): the baseline build and an identical one with `--inject-latency 20`, a
 * +20 % build with `--inject-latency 24`. First `--baseline-runs` runs of the baseline build are recorded one after
 * the other (`harness history H --add … --label main`), as a main branch's CI jobs would; then each round measures
 * the identical and the +20 % build, one after the other (each CI job measures its build alone), and runs
 * `harness compare --history H --label main` on each.
 *
 *   npm run bench:gate -- --history --rounds 20                  # quiet: identical PASSED, +20 % EXCEEDED ≥ 18/20
 *   npm run bench:gate -- --history --rounds 10 --busy 2         # two busy loops: identical never EXCEEDED
 *   … --baseline-runs 5 --duration 30s --budget 'p50:+10%,p95:+25%'
 *
 * Prints each round's two verdicts, the tallies and the load average; records nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, serve, type Served } from './processes.ts';

const args = new Map(process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1] ?? '']] : [])));
const ROUNDS = Number(args.get('rounds') ?? 5);
const BASELINE_RUNS = Number(args.get('baseline-runs') ?? 5);
const BUSY = Number(args.get('busy') ?? 0);
const DURATION = args.get('duration');
const BUDGET = args.get('budget') ?? 'p50:+10%,p95:+25%';
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const loads: number[] = [];

async function load(target: Served, dir: string): Promise<string> {
  const argv = ['load', '--scenario', 'gate', '--target', target.baseUrl, '--out', dir, '--no-progress', ...(DURATION ? ['--duration', DURATION] : [])];
  const result = await run(argv, { HARNESS_LOAD_KEY: target.loadKey });
  loads.push(loadavg()[0]!);
  if (result.code !== 0 && result.code !== 99) throw new Error(`harness load exited ${result.code}:\n${result.stdout.slice(-2000)}`);
  const [runId] = readdirSync(dir);
  return join(dir, runId!, 'report.json');
}

/** The gate's word: EXCEEDED (exit 1), INCONCLUSIVE (exit 0, a budget undecided) or PASSED; and the budget lines. */
async function compare(history: string, candidate: string, dir: string): Promise<{ word: string; line: string }> {
  const result = await run(['compare', '--history', history, '--label', 'main', candidate, '--budget', BUDGET, '--out', dir]);
  const inconclusive = /^gate: INCONCLUSIVE/m.test(result.stdout);
  const word = result.code === 1 ? 'EXCEEDED' : result.code === 0 ? (inconclusive ? 'INCONCLUSIVE' : 'PASSED') : `exit ${result.code}`;
  const budgets = result.stdout.slice(result.stdout.indexOf('\nBudgets\n'), result.stdout.indexOf('\ngate: '));
  // Each budget's status and its first clause (value, limit, spread), without the list of runs.
  const line = budgets.split('\n').filter((l) => /^\s+(ok|EXCEEDED|inconclusive)\s/.test(l)).map((l) => l.trim().replace(/; compared with .*$/, '').replace(/\s+\S+\s+(p\d\d:)/, ' $1')).join('\n    ');
  return { word, line };
}

async function main(): Promise<void> {
  const busy: ChildProcess[] = [];
  for (let i = 0; i < BUSY; i++) busy.push(spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end);'], { stdio: 'ignore' }));
  const work = mkdtempSync(join(tmpdir(), 'bench-gate-history-'));
  const history = join(work, 'history');
  const targets: Served[] = [];
  const tally = { identical: {} as Record<string, number>, slower: {} as Record<string, number> };
  out(`bench/gate --history — node ${process.version}, ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${BUSY} busy loop(s), budget ${BUDGET}, ${BASELINE_RUNS} baseline run(s), ${ROUNDS} round(s) of scenarios/gate.yaml${DURATION ? ` shortened to ${DURATION}` : ''}`);
  try {
    // One at a time: on a loaded 2-core machine three starting together can outlast serve's start bound.
    for (const extra of [['--inject-latency', '20'], ['--inject-latency', '20'], ['--inject-latency', '24']]) targets.push(await serve(extra));
    const [base, same, slower] = targets as [Served, Served, Served];
    for (let i = 1; i <= BASELINE_RUNS; i++) {
      const report = await load(base, join(work, `base-${i}`));
      const added = await run(['history', history, '--add', report, '--label', 'main', '--out', join(work, `trend-${i}`)]);
      if (added.code !== 0) throw new Error(`harness history --add exited ${added.code}`);
      out(`baseline run ${i} recorded (load ${loadavg()[0]!.toFixed(1)})`);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await compare(history, await load(same, join(work, `${round}-same`)), join(work, `${round}-cmp-same`));
      const b = await compare(history, await load(slower, join(work, `${round}-slow`)), join(work, `${round}-cmp-slow`));
      tally.identical[a.word] = (tally.identical[a.word] ?? 0) + 1;
      tally.slower[b.word] = (tally.slower[b.word] ?? 0) + 1;
      out(`round ${round} (load ${loadavg()[0]!.toFixed(1)}): identical ${a.word}; +20 % ${b.word}`);
      out(`  identical:\n    ${a.line}`);
      out(`  +20 %:\n    ${b.line}`);
    }
  } finally {
    for (const t of targets) t.child.kill('SIGTERM');
    for (const b of busy) b.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
  out(`identical builds: ${JSON.stringify(tally.identical)}   (goal on a quiet machine: PASSED ≥ 90 %; always: no EXCEEDED)`);
  out(`+20 % build:      ${JSON.stringify(tally.slower)}   (goal on a quiet machine: EXCEEDED ≥ 90 %; always: never PASSED)`);
  out(`load average while measuring: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1-minute, sampled after each run)`);
}

await main();
