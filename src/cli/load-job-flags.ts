/**
 * What `harness load` and `harness capacity` do alike with their flags: the config with --target, --out and
 * --metrics-out laid over it, and the options every load job takes (report files, log, interruption, workers,
 * progress). One place, so the two commands cannot drift apart.
 */
import { loadConfig } from '../config/index.ts';
import type { FrozenConfig } from '../config/types.ts';
import type { ReportFileOptions } from '../job/write-reports.ts';
import { createProgress, type ProgressSink } from '../load/progress.ts';
import type { WorkersSetting } from '../load/workers/count.ts';
import { interruptSignal } from './interrupt.ts';
import { resolveConfigFile } from './parse-flags.ts';
import { reportFileOptions } from './report-file-options.ts';

export interface LoadJobFlags {
  target?: string;
  config?: string;
  out?: string;
  progress?: boolean;
  workers?: WorkersSetting;
  metricsOut?: string;
}

export function loadJobConfig(flags: LoadJobFlags): FrozenConfig {
  return loadConfig(resolveConfigFile(flags.config), {
    env: process.env,
    overrides: {
      ...(flags.target ? { target: { baseUrl: flags.target } } : {}),
      ...(flags.out ? { report: { outDir: flags.out } } : {}),
      ...(flags.metricsOut ? { load: { metricsOut: flags.metricsOut } } : {}),
    },
    overrideSource: { 'target.baseUrl': '--target', 'report.outDir': '--out', 'load.metricsOut': '--metrics-out' },
  });
}

export interface CommonLoadJobOptions {
  reportFiles: ReportFileOptions;
  config: FrozenConfig;
  log: (line: string) => void;
  signal: AbortSignal;
  workers?: WorkersSetting;
  progress?: ProgressSink;
}

/** Call once the command's own inputs are read: from here on SIGINT/SIGTERM stop the job, not the process. */
export function commonLoadJobOptions(flags: LoadJobFlags, config: FrozenConfig): CommonLoadJobOptions {
  // --workers, else the config's load.workers, else (in runScenario) the scenario's workers, else auto.
  const workers = flags.workers ?? config.load.workers;
  return {
    reportFiles: reportFileOptions(undefined),
    config,
    log: (line) => process.stdout.write(`${line}\n`),
    // SIGINT/SIGTERM abort this signal: the job stops, writes its partial report, and main exits 105.
    signal: interruptSignal(),
    ...(workers !== undefined ? { workers } : {}),
    ...(flags.progress === false ? {} : { progress: createProgress(process.stderr) }),
  };
}
