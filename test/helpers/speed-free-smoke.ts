/**
 * The shipped smoke scenario with only its thresholds that no machine's speed decides, written where `harness`
 * looks first for a scenario (<dir>/scenarios/smoke.yaml, the command run with cwd = dir). The load is the shipped
 * one unchanged; a loaded machine crosses the latency and dropped-iteration thresholds honestly (exit 99), and the
 * tests that use this are about something else (the README tour, trust and kept-alive TLS).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './cli.ts';

/** Thresholds of the shipped smoke scenario that no machine's speed decides. */
export const SPEED_FREE_THRESHOLDS = ['http_req_failed'];

export function writeSpeedFreeSmoke(dir: string): void {
  const smoke = parse(readFileSync(join(REPO_ROOT, 'scenarios', 'smoke.yaml'), 'utf8')) as { thresholds: Record<string, string[]> };
  smoke.thresholds = Object.fromEntries(Object.entries(smoke.thresholds).filter(([metric]) => SPEED_FREE_THRESHOLDS.includes(metric)));
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(join(dir, 'scenarios', 'smoke.yaml'), stringify(smoke));
}
