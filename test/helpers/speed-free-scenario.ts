/**
 * Shipped scenarios with only their thresholds that no machine's speed decides. The load is the shipped one
 * unchanged; a loaded machine crosses the latency and dropped-iteration thresholds honestly (exit 99), and the
 * tests that use these are about something else (the README tour, trust and kept-alive TLS, flows end to end).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './cli.ts';

/** Thresholds of the shipped scenarios that no machine's speed decides. */
export const SPEED_FREE_THRESHOLDS = ['http_req_failed'];

/** The shipped scenario `name` (scenarios/<name>.yaml) as YAML text, its speed thresholds left out. */
export function speedFreeScenario(name: string): string {
  const scenario = parse(readFileSync(join(REPO_ROOT, 'scenarios', `${name}.yaml`), 'utf8')) as { thresholds: Record<string, string[]> };
  scenario.thresholds = Object.fromEntries(Object.entries(scenario.thresholds).filter(([metric]) => SPEED_FREE_THRESHOLDS.includes(metric)));
  return stringify(scenario);
}

/** The speed-free smoke scenario where `harness` looks first for one (<dir>/scenarios/smoke.yaml, run with cwd = dir). */
export function writeSpeedFreeSmoke(dir: string): void {
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(join(dir, 'scenarios', 'smoke.yaml'), speedFreeScenario('smoke'));
}
