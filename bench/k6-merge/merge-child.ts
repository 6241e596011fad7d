/** The merge alone, in its own process, so its time and peak RSS are its own: node --import tsx merge-child.ts SCENARIO OUT FILE... */
import { importK6Runs } from '../../src/job/import-k6.ts';

const [scenario, out, ...files] = process.argv.slice(2);
const start = performance.now();
const outcome = await importK6Runs({ files, scenario: scenario!, out: out!, log: (line) => process.stderr.write(`${line}\n`), progressEveryMs: 5000 });
const ms = performance.now() - start;
const s = outcome.report.scenarios![0] as { requests: number; latency: { p50: number; p99: number } };
process.stdout.write(`${JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, requests: s.requests, p50: s.latency.p50, p99: s.latency.p99 })}\n`);
