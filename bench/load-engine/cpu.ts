/**
 * bench/load-engine `cpu` section: CPU time per request beside throughput, for the harness and its peers in the
 * same run, each generator pinned to the same core (nginx on its own cores when the machine has them).
 *   - open model at a fixed rate (default 10 000 req/s, 50 VUs, no warm-up): the harness and wrk2 -R;
 *   - closed model, 50 connections: the harness, autocannon and wrk.
 * How CPU is measured: measure.ts.
 */
import { formatRatio, formatRun, measureHarness, measurePeer, out, parseWrk, scenario, tryPeer, wrk2Path, autocannonPeer, wrkPeer, type Measured } from './measure.ts';
import { pinSelf, type Layout } from './multicore.ts';

async function harness(url: string, data: Record<string, unknown>): Promise<Measured> {
  const { measured } = await measureHarness({ scenario: scenario({ warmUp: false, workers: 1, ...data }), baseUrl: url });
  return measured;
}

export async function cpuSection(url: string, options: { layout: Layout; seconds: number; rate: number }): Promise<void> {
  const { layout, seconds, rate } = options;
  const cpus = layout.generator(1);
  out(`\n== CPU per request: generators on ${cpus ? `CPU ${cpus}` : 'any core (NOT PINNED)'}, nginx on CPU ${layout.nginx}, ${seconds} s each ==`);
  await pinSelf(cpus, layout);
  try {
    out(`-- open model: ${rate} req/s, 50 VUs`);
    const open = { executor: 'constant-arrival-rate', rate, duration: `${seconds}s`, preAllocatedVUs: 50, maxVUs: 50 };
    const harnessOpen = await harness(url, { name: 'open', ...open });
    out(formatRun('harness open model', harnessOpen));
    const wrk2 = wrk2Path();
    // wrk2 calibrates for its first ~10 s: run it at least 20 s; its CPU and its request count cover the whole run.
    const duration = Math.max(20, seconds);
    const peerOpen = wrk2.path
      ? await tryPeer(async () => {
          const { stdout, cpuUs, wallS } = await measurePeer([wrk2.path!, '-t1', '-c50', `-d${duration}s`, `-R${rate}`, '--latency', url], cpus);
          return { ...parseWrk(stdout), cpuUs, wallS };
        })
      : { missing: wrk2.why };
    out(formatRun(`wrk2 -t1 -c50 -R${rate} (${duration} s)`, peerOpen.measured, peerOpen.missing));
    out(formatRatio('harness', harnessOpen, 'wrk2', peerOpen.measured));

    out('-- closed model: 50 connections');
    const closed = await harness(url, { name: 'closed', executor: 'constant-vus', vus: 50, duration: `${seconds}s` });
    out(formatRun('harness closed model', closed));
    const ac = await tryPeer(() => autocannonPeer(url, 50, seconds, [], cpus));
    out(formatRun('autocannon -c50', ac.measured, ac.missing));
    const wrk = await tryPeer(() => wrkPeer(url, 1, 50, seconds, cpus));
    out(formatRun('wrk -t1 -c50', wrk.measured, wrk.missing));
    out(formatRatio('harness', closed, 'autocannon', ac.measured));
    out(formatRatio('harness', closed, 'wrk', wrk.measured));
  } finally {
    await pinSelf(undefined, layout);
  }
}
