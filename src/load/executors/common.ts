/** Checks and helpers shared by the executors. */
import { parseDuration } from '../duration.ts';
import type { ExecutorOptions, Scenario, Stage } from '../scenario/types.ts';
import type { ExecutorBase, Segment } from './types.ts';

const ALL_OPTIONS: ReadonlyArray<keyof ExecutorOptions> = [
  'vus', 'duration', 'iterations', 'maxDuration', 'startVUs', 'stages', 'rate', 'startRate', 'timeUnit', 'preAllocatedVUs', 'maxVUs', 'gracefulStop',
];

/** Who reads an option, for "does not apply" messages. */
export type OptionOwners = (option: keyof ExecutorOptions) => string[];

export function durationMs(text: string | undefined, fallback = 0): number {
  return text === undefined ? fallback : parseDuration(text) ?? fallback;
}

/** The problems every executor shares: options of other executors, missing required ones, bad durations. */
export function commonProblems(executor: ExecutorBase, cfg: Scenario, owners: OptionOwners): string[] {
  const problems: string[] = [];
  for (const option of ALL_OPTIONS) {
    if (cfg[option] === undefined || executor.options.includes(option)) continue;
    const others = owners(option);
    problems.push(`${option}: does not apply to ${executor.name}${others.length ? ` (it is an option of ${others.join(', ')})` : ''}`);
  }
  for (const option of executor.required) {
    if (cfg[option] === undefined) problems.push(`executor: ${executor.name} needs "${option}"`);
  }
  for (const option of ['duration', 'maxDuration', 'timeUnit', 'gracefulStop'] as const) {
    const value = cfg[option];
    if (value !== undefined && parseDuration(value) === undefined) problems.push(`${option}: "${value}" is not a duration (e.g. 30s, 1m30s)`);
  }
  if (cfg.duration !== undefined && parseDuration(cfg.duration) === 0) problems.push('duration: must be longer than 0s');
  if (cfg.timeUnit !== undefined && parseDuration(cfg.timeUnit) === 0) problems.push('timeUnit: must be longer than 0s');
  return problems;
}

export function stageProblems(stages: readonly Stage[] | undefined, unit: string): string[] {
  const problems: string[] = [];
  (stages ?? []).forEach((stage, i) => {
    if (parseDuration(stage.duration) === undefined) problems.push(`stages[${i}].duration: "${stage.duration}" is not a duration (e.g. 30s)`);
    if (!(stage.target >= 0)) problems.push(`stages[${i}].target: must be >= 0 ${unit}`);
  });
  if (stages && stages.length > 0 && stages.every((s) => (parseDuration(s.duration) ?? 0) === 0)) problems.push('stages: the stages must last longer than 0s in total');
  return problems;
}

export function positive(cfg: Scenario, option: 'vus' | 'iterations' | 'rate' | 'preAllocatedVUs' | 'maxVUs'): string[] {
  const value = cfg[option];
  return value !== undefined && !(value > 0) ? [`${option}: must be > 0`] : [];
}

export function maxVUsProblems(cfg: Scenario): string[] {
  if (cfg.maxVUs !== undefined && cfg.preAllocatedVUs !== undefined && cfg.maxVUs < cfg.preAllocatedVUs) {
    return [`maxVUs: ${cfg.maxVUs} is less than preAllocatedVUs (${cfg.preAllocatedVUs})`];
  }
  return [];
}

export function stageSegments(start: number, stages: readonly Stage[], scale = 1): Segment[] {
  let from = start * scale;
  return stages.map((stage) => {
    const segment = { durationMs: durationMs(stage.duration), from, to: stage.target * scale };
    from = segment.to;
    return segment;
  });
}

export function totalMs(segments: readonly Segment[]): number {
  return segments.reduce((sum, s) => sum + s.durationMs, 0);
}

export function describeStages(stages: readonly Stage[] | undefined, unit: string): string {
  return (stages ?? []).map((s) => `${s.target}${unit} over ${s.duration}`).join(', then ');
}
