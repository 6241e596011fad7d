/**
 * bench/load-engine `cpu` section: CPU time per request beside throughput, for the harness and its peers in the
 * same run, each generator pinned to the same core (nginx on its own cores when the machine has them).
 *   - open model at a fixed rate (default 10 000 req/s, 50 VUs, no warm-up): the harness and wrk2 -R;
 *   - closed model, 50 connections: the harness, autocannon and wrk.
 * With --rounds N, each comparison runs N times, the generators back to back in each round, and a last line gives
 * the median of the rounds' ratios.
 * How CPU is measured: measure.ts.
 */
import { cpuRatio, formatRatio, formatRun, measureHarness, measurePeer, median, out, parseWrk, scenario, times, tryPeer, wrk2Path, autocannonPeer, wrkPeer, type Measured } from './measure.ts';
import { pinSelf, type Layout } from './multicore.ts';

async function harness(url: string, data: Record<string, unknown>): Promise<Measured> {
  const { measured } = await measureHarness({ scenario: scenario({ warmUp: false, workers: 1, ...data }), baseUrl: url });
  return measured;
}

export async function cpuSection(url: string, options: { layout: Layout; seconds: number; rate: number; rounds: number }): Promise<void> {
  const { layout, seconds, rate, rounds } = options;
  const cpus = layout.generator(1);
  out(`\n== CPU per request: generators on ${cpus ? `CPU ${cpus}` : 'any core (NOT PINNED)'}, nginx on CPU ${layout.nginx}, ${seconds} s each, ${rounds} round(s) ==`);
  // A shared machine moves a run's CPU per request by a fifth from one minute to the next: each round runs the
  // harness and its peers back to back, and the verdict is the median of the rounds' ratios, not one pair's.
  await pinSelf(cpus, layout);
  try {
    const open = { executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 50, maxVUs: 50 };
    const wrk2 = wrk2Path();
    // wrk2 calibrates for its first ~10 s: run it at least 20 s; its CPU and its request count cover the whole run.
    const duration = Math.max(20, seconds);
    const openRatios: Array<number | undefined> = [];
    for (let round = 1; round <= rounds; round++) {
      out(`-- open model: ${rate} req/s, 50 VUs${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}`);
      const harnessOpen = await harness(url, { name: 'open', ...open });
      out(formatRun('harness open model', harnessOpen));
      const peerOpen = wrk2.path
        ? await tryPeer(async () => {
            const { stdout, cpuUs, wallS } = await measurePeer([wrk2.path!, '-t1', '-c50', `-d${duration}s`, `-R${rate}`, '--latency', url], cpus);
            return { ...parseWrk(stdout), cpuUs, wallS };
          })
        : { missing: wrk2.why };
      out(formatRun(`wrk2 -t1 -c50 -R${rate} (${duration} s)`, peerOpen.measured, peerOpen.missing));
      out(formatRatio('harness', harnessOpen, 'wrk2', peerOpen.measured));
      openRatios.push(cpuRatio(harnessOpen, peerOpen.measured));
    }
    if (rounds > 1) out(`open model, median of ${rounds} rounds: harness / wrk2 CPU per request ${times(median(openRatios))} (rounds: ${openRatios.map((r) => times(r)).join(', ')})`);

    const acRatios: Array<number | undefined> = [];
    const wrkRatios: Array<number | undefined> = [];
    for (let round = 1; round <= rounds; round++) {
      out(`-- closed model: 50 connections${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}`);
      const closed = await harness(url, { name: 'closed', executor: 'constant-vus', vus: 50, duration: `${seconds}s` });
      out(formatRun('harness closed model', closed));
      const ac = await tryPeer(() => autocannonPeer(url, 50, seconds, [], cpus));
      out(formatRun('autocannon -c50', ac.measured, ac.missing));
      const wrk = await tryPeer(() => wrkPeer(url, 1, 50, seconds, cpus));
      out(formatRun('wrk -t1 -c50', wrk.measured, wrk.missing));
      out(formatRatio('harness', closed, 'autocannon', ac.measured));
      out(formatRatio('harness', closed, 'wrk', wrk.measured));
      acRatios.push(cpuRatio(closed, ac.measured));
      wrkRatios.push(cpuRatio(closed, wrk.measured));
    }
    if (rounds > 1) {
      out(`closed model, median of ${rounds} rounds: harness / autocannon CPU per request ${times(median(acRatios))} (rounds: ${acRatios.map((r) => times(r)).join(', ')}); harness / wrk ${times(median(wrkRatios))}`);
    }
  } finally {
    await pinSelf(undefined, layout);
  }
}

/** A ladder step held: achieved within ±1 % of the rate and at most 1 % of the arrivals dropped (the harness). */
const held = (rate: number, m: Measured | undefined, dropped = 0): boolean => !!m && Math.abs(m.rps / rate - 1) <= 0.01 && dropped <= 0.01 * rate * (m.wallS ?? 1);

/**
 * `ceiling` section: the highest open-model rate one core sustains, the harness's and wrk2's, up the same ladder,
 * each generator pinned to the same core. A step holds when the achieved rate is within ±1 % of the requested
 * one and (the harness) at most 1 % of the arrivals were dropped; each ladder stops at its first failed step.
 * wrk2 runs 20 s a step (its first 10 s calibrate); the harness `seconds` with 1 s of warm-up (warmUp on, as a user runs it).
 */
export async function ceilingSection(url: string, options: { layout: Layout; seconds: number; rates: number[] }): Promise<void> {
  const { layout, seconds, rates } = options;
  const cpus = layout.generator(1);
  out(`\n== open-model ceiling on one core: generators on ${cpus ? `CPU ${cpus}` : 'any core (NOT PINNED)'}, nginx on CPU ${layout.nginx}, 50 VUs / connections ==`);
  const best: Record<string, number | undefined> = { harness: undefined, wrk2: undefined };
  await pinSelf(cpus, layout);
  try {
    for (const rate of rates) {
      const { measured, outcome } = await measureHarness({ scenario: scenario({ name: `ceiling-${rate}`, executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 50, maxVUs: 50, workers: 1 }), baseUrl: url });
      const ok = held(rate, measured, 0) && outcome.result.dropped <= 0.01 * rate * seconds;
      out(formatRun(`harness ${rate} req/s: ${ok ? 'held' : 'not held'}`, measured));
      if (!ok) break;
      best.harness = rate;
    }
  } finally {
    await pinSelf(undefined, layout);
  }
  const wrk2 = wrk2Path();
  if (!wrk2.path) out(`wrk2: ${wrk2.why}`);
  else
    for (const rate of rates) {
      const step = await tryPeer(async () => {
        const { stdout, cpuUs, wallS } = await measurePeer([wrk2.path!, '-t1', '-c50', '-d20s', `-R${rate}`, '--latency', url], cpus);
        return { ...parseWrk(stdout), cpuUs, wallS };
      });
      const ok = held(rate, step.measured);
      out(formatRun(`wrk2 -R${rate} (20 s): ${ok ? 'held' : 'not held'}`, step.measured, step.missing));
      if (!ok) break;
      best.wrk2 = rate;
    }
  out(`sustained on one core: harness ${best.harness ?? `below ${rates[0]}`} req/s, wrk2 ${best.wrk2 ?? `below ${rates[0]}`} req/s${best.harness && best.wrk2 ? `; harness / wrk2 ${(best.harness / best.wrk2).toFixed(2)}×` : ''}`);
}
