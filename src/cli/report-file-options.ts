/**
 * The report files' options of every command that writes them: `--junit-warnings-as-failures` (harness run), or
 * HARNESS_JUNIT_WARNINGS_AS_FAILURES=1 (docs/reference/reports.md promises it to users). The environment is read
 * here, once per command, and the option travels down through the job to the junit.xml printer: no printer reads
 * the environment, so a library call in the same process is never steered by it.
 */
import type { ReportFileOptions } from '../job/write-reports.ts';

export const WARNINGS_AS_FAILURES_ENV = 'HARNESS_JUNIT_WARNINGS_AS_FAILURES';

export function reportFileOptions(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): ReportFileOptions {
  return { junit: { warningsAsFailures: flag === true || env[WARNINGS_AS_FAILURES_ENV] === '1' } };
}
