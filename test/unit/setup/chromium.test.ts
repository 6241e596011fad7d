/**
 * The globalSetup's decision on a fresh machine (a real apt-get install is too slow and too invasive for a unit
 * test, so the machine is described, not changed): install when missing and root, say what to install otherwise.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, ensureChromium, INSTALL_HINT, LOCK_RETRY_MS, LOCK_WAIT_MS, type EnsureDeps } from '../../setup/chromium.ts';

const LOCKED = 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)';

/** A described machine: `exits` are apt-get's answers in turn, `[status, stderr]` or a status; time is simulated. */
function machine(over: Partial<EnsureDeps> & { files?: string[]; exits?: Array<number | [number, string]> }) {
  const files = new Set(over.files ?? ['/usr/bin/apt-get']);
  const exits = [...(over.exits ?? [0, 0])];
  const ran: string[] = [];
  const said: string[] = [];
  let clock = 0;
  const deps: EnsureDeps = {
    exists: (p) => files.has(p),
    isRoot: true,
    env: {},
    run: (command, args) => {
      ran.push(`${command} ${args.filter((a, i) => a !== '-o' && args[i - 1] !== '-o').join(' ')}`);
      const next = exits.shift() ?? 0;
      const [code, stderr] = typeof next === 'number' ? [next, ''] : next;
      if (args.includes('chromium') && code === 0) files.add(CHROMIUM);
      clock += 1_000;
      return { status: code, stderr };
    },
    say: (line) => said.push(line),
    now: () => clock,
    sleep: (ms) => {
      clock += ms;
    },
    ...over,
  };
  return { deps, ran, said };
}

describe('ensureChromium', () => {
  it('does nothing when Chromium is there', () => {
    const m = machine({ files: [CHROMIUM] });
    expect(ensureChromium(m.deps)).toBe('present');
    expect(m.ran).toEqual([]);
  });

  it('installs it with apt-get when missing and root, saying so', () => {
    const m = machine({});
    expect(ensureChromium(m.deps)).toBe('installed');
    expect(m.ran).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium']);
    expect(m.said.at(-1)).toBe('[browser tests] chromium installed');
  });

  it('passes apt a bounded dpkg lock timeout', () => {
    const m = machine({});
    const args: string[][] = [];
    const run = m.deps.run;
    m.deps.run = (c, a, t) => (args.push(a), run(c, a, t));
    ensureChromium(m.deps);
    expect(args[0]!.slice(0, 2)).toEqual(['-o', `DPkg::Lock::Timeout=${LOCK_WAIT_MS / 1000}`]);
    expect(Number(args[1]![1]!.split('=')[1])).toBeLessThanOrEqual(LOCK_WAIT_MS / 1000);
  });

  it('waits for a lock another process holds, bounded, and says what it waited for and how long', () => {
    const m = machine({ exits: [[100, LOCKED], [100, LOCKED], 0, 0] });
    expect(ensureChromium(m.deps)).toBe('installed');
    expect(m.ran).toEqual(['apt-get update -qq', 'apt-get update -qq', 'apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium']);
    expect(m.said).toContain(`[browser tests] apt-get update: waited 13 s for the apt/dpkg lock another process held ("${LOCKED}")`);
  });

  it('gives up when the lock stays held past the bound, naming the holder and the bound', () => {
    const m = machine({ exits: Array.from({ length: 200 }, () => [100, LOCKED] as [number, string]) });
    expect(ensureChromium(m.deps)).toBe('missing');
    // Bounded: about LOCK_WAIT_MS / (LOCK_RETRY_MS + 1 s per try) tries, never all 200.
    expect(m.ran.length).toBeLessThanOrEqual(Math.ceil(LOCK_WAIT_MS / LOCK_RETRY_MS) + 1);
    expect(m.said.some((l) => l.startsWith('[browser tests] apt-get update: gave up after 30') && l.includes('process 4242') && l.includes(`at most ${LOCK_WAIT_MS / 1000} s`))).toBe(true);
    expect(m.said.at(-1)).toContain(INSTALL_HINT);
  });

  it('does not retry a failure that is not a lock', () => {
    const m = machine({ exits: [[100, 'E: The repository is not signed.']] });
    expect(ensureChromium(m.deps)).toBe('missing');
    expect(m.ran).toEqual(['apt-get update -qq']);
  });

  it('says exactly what to install when it cannot (not root, opted out, or apt-get failed)', () => {
    for (const m of [machine({ isRoot: false }), machine({ env: { HARNESS_NO_BROWSER_INSTALL: '1' } }), machine({ exits: [100] })]) {
      expect(ensureChromium(m.deps)).toBe('missing');
      expect(m.said.at(-1)).toContain(INSTALL_HINT);
    }
  });
});
