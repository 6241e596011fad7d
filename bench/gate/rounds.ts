/**
 * bench/gate: the CI gate recipe (docs/ci-gate.md "A CI gate you can rely on") followed literally, N rounds.
 * Three reference targets as separate processes (`harness serve`): A and B identical, C with 50 ms injected
 * latency. Each round measures all three at the same time with `harness load --scenario gate` (three processes),
 * then runs `harness compare A B --budget` (identical builds: must never be EXCEEDED) and `harness compare A C`
 * (the +50 ms build: must be EXCEEDED). `--busy N` starts N busy loops beside it (killed by PID at the end).
 *
 *   npm run bench:gate -- --rounds 20                  # quiet machine: the +50 ms build is caught in ≥ 19 of 20
 *   npm run bench:gate -- --rounds 20 --busy 2         # two busy loops: identical builds 0 EXCEEDED
 *
 * Prints each round's two verdicts and the tallies; records nothing (copy them into docs/ci-gate.md with the machine).
 * HARNESS_CLI names the CLI to run (default bin/harness.js; a bundled build on a machine without tsx).
 * `--history` runs the recipe with a history instead (bench/gate/history.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, serve, type Served } from './processes.ts';

const args = new Map(process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1] ?? '']] : [])));
const ROUNDS = Number(args.get('rounds') ?? 5);
const BUSY = Number(args.get('busy') ?? 0);
const BUDGET = args.get('budget') ?? 'p50:+10ms,p95:+10%';
const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function load(target: Served, dir: string): Promise<string> {
  const result = await run(['load', '--scenario', 'gate', '--target', target.baseUrl, '--out', dir, '--no-progress'], { HARNESS_LOAD_KEY: target.loadKey });
  if (result.code !== 0 && result.code !== 99) throw new Error(`harness load exited ${result.code}:\n${result.stdout.slice(-2000)}`);
  const [runId] = readdirSync(dir);
  return join(dir, runId!, 'report.json');
}

/** The gate's word for a comparison: EXCEEDED (exit 1), INCONCLUSIVE (exit 0 with an inconclusive budget) or PASSED. */
async function compare(base: string, candidate: string, dir: string): Promise<{ word: string; line: string }> {
  const result = await run(['compare', base, candidate, '--budget', BUDGET, '--out', dir]);
  const inconclusive = /inconclusive/i.test(result.stdout);
  const word = result.code === 1 ? 'EXCEEDED' : result.code === 0 ? (inconclusive ? 'INCONCLUSIVE' : 'PASSED') : `exit ${result.code}`;
  // The budgets' detail lines ("p50:+10ms: …"), once each.
  const line = [...new Set(result.stdout.split('\n').map((l) => l.trim()).filter((l) => /^p(50|95|99):[+-][\d.]+(ms|%): /.test(l)))].join(' | ');
  return { word, line };
}

async function main(): Promise<void> {
  const busy: ChildProcess[] = [];
  for (let i = 0; i < BUSY; i++) busy.push(spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end);'], { stdio: 'ignore' }));
  const targets = await Promise.all([serve([]), serve([]), serve(['--inject-latency', '50'])]);
  const tally = { identical: {} as Record<string, number>, slower: {} as Record<string, number> };
  const work = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  out(`bench/gate — node ${process.version}, ${availableParallelism()} cores, ${BUSY} busy loop(s), budget ${BUDGET}, ${ROUNDS} round(s) of scenarios/gate.yaml`);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const dirs = ['a', 'b', 'c'].map((name) => join(work, `${round}-${name}`));
      const [a, b, c] = await Promise.all(targets.map((t, i) => load(t, dirs[i]!)));
      const identical = await compare(a!, b!, join(work, `${round}-ab`));
      const slower = await compare(a!, c!, join(work, `${round}-ac`));
      tally.identical[identical.word] = (tally.identical[identical.word] ?? 0) + 1;
      tally.slower[slower.word] = (tally.slower[slower.word] ?? 0) + 1;
      out(`round ${round} (load ${loadavg()[0]!.toFixed(1)}): identical ${identical.word}; +50 ms ${slower.word}`);
      out(`  identical: ${identical.line}`);
      out(`  +50 ms:    ${slower.line}`);
    }
  } finally {
    for (const t of targets) t.child.kill('SIGTERM');
    for (const b of busy) b.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
  out(`identical builds: ${JSON.stringify(tally.identical)}   (goal: no EXCEEDED)`);
  out(`+50 ms build:     ${JSON.stringify(tally.slower)}   (goal on a quiet machine: EXCEEDED in ≥ 95 %)`);
}

if (args.has('history')) await import('./history.ts');
else await main();
