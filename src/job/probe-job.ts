/**
 * `harness probe ratelimit` end to end: open the target (URL or embedded), check it answers, probe one
 * credential's limit (and isolation against another), print the verdict, and write reports/<run-id>/report.json
 * with the `rateLimit` section and no checks. A target that does not answer the preflight is unreachable, one that
 * stops answering while probed is lost: both end with exit 3 and a report that says so (as `run` and `load` do),
 * never with "no limit observed".
 */
import { join } from 'node:path';
import type { CredentialsConfig, FrozenConfig } from '../config/types.ts';
import { isHarnessError, UsageError } from '../errors.ts';
import type { ExitCodeValue } from '../exit-codes.ts';
import { HttpClient } from '../http/client.ts';
import { openTarget } from './open-target.ts';
import { assertWritableOutDir } from './out-dir.ts';
import { assertReachable } from './preflight.ts';
import { runSecrets, writeReports } from './write-reports.ts';
import { exitCodeOfReport } from '../report/headline.ts';
import { buildReport, newRunId, type Report } from '../report/report.ts';
import { probeRateLimit, TRANSPORT_STOP } from '../ratelimit/probe/probe.ts';
import { toRateLimitReport } from '../report/probe-report.ts';
import type { ProbeResult } from '../ratelimit/probe/types.ts';
import { formatProbe } from '../ratelimit/probe/verdict.ts';
import { silent } from '../util/silent.ts';

/** Credential names `--credential` accepts: the API-key members of `credentials`, or `none` (per-address limit). */
export const PROBE_CREDENTIALS = ['apiKey', 'secondKey', 'restrictedKey', 'loadKey', 'none'] as const;
export type ProbeCredentialName = (typeof PROBE_CREDENTIALS)[number];

export interface ProbeJobOptions {
  config: FrozenConfig;
  credential: ProbeCredentialName;
  maxRps: number;
  budgetRequests: number;
  budgetSeconds: number;
  /** Where the job's lines go (what it runs, summary tables, files written). @default nothing is printed; the CLI hands in a printer. */
  log?: (line: string) => void;
  /** SIGINT/SIGTERM: the probe stops, and the report holds what it measured until then (marked interrupted). */
  signal?: AbortSignal;
}

export interface ProbeJobOutcome {
  /** What the probe measured; absent when the target did not answer the preflight (nothing was probed). */
  result?: ProbeResult;
  report: Report;
  file: string;
  /** 0, or 3 when the target was unreachable or lost, 105 when interrupted (the report's banner says the same). */
  exitCode: ExitCodeValue;
}

export async function runProbeJob(options: ProbeJobOptions): Promise<ProbeJobOutcome> {
  const { config } = options;
  // A library call prints nothing unless it is handed a `log` (the CLI hands one that prints).
  const log = options.log ?? silent;
  await assertWritableOutDir(config.report.outDir);
  const runId = newRunId();
  const startedAt = new Date().toISOString();
  const target = await openTarget(config);
  try {
    const secrets = runSecrets(config, target.credentials);
    const { primary, second } = pickCredentials(target.credentials, options.credential);
    const http = new HttpClient({ baseUrl: target.info.baseUrl, timeoutMs: config.target.timeoutMs, retryOn429: false });
    let result: ProbeResult | undefined;
    let stopped: { code: string; message: string } | undefined;
    try {
      stopped = await preflight(http, config, options.signal);
      if (!stopped) {
        log(secrets.redactText(`probe ratelimit: ${target.info.baseUrl}${target.info.embedded ? ' (embedded reference target)' : ''}, credential ${options.credential}, `
          + `at most ${options.maxRps} req/s, ${options.budgetRequests} requests, ${options.budgetSeconds} s`));
        result = await probeRateLimit({
          http,
          credential: primary,
          ...(second !== undefined ? { secondCredential: second } : {}),
          maxRps: options.maxRps,
          budgetRequests: options.budgetRequests,
          budgetSeconds: options.budgetSeconds,
          style: config.api.rateLimitHeaders,
          ...(config.api.rateLimitPolicy ? { policy: { quota: config.api.rateLimitPolicy.quota, windowS: config.api.rateLimitPolicy.windowSeconds } } : {}),
          path: config.api.paths.listMessages,
          query: { [config.api.query.limit]: 1 },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        stopped = lostDuring(result, target.info.baseUrl);
      }
    } finally {
      await http.close();
    }
    if (result) for (const line of formatProbe(result)) log(secrets.redactText(line));
    const report = buildReport({
      runId,
      startedAt,
      target: target.info,
      ...(result ? { rateLimit: toRateLimitReport(result) } : {}),
      ...(options.signal?.aborted
        ? { aborted: { code: 'HARNESS_ABORTED', message: 'interrupted: the probe stopped early; the report holds only what it measured until then' } }
        : stopped ? { aborted: { code: stopped.code, message: secrets.redactText(stopped.message) } } : {}),
    });
    // The same files as every other command: report.html shows the probe's timeline and findings.
    const runDir = join(config.report.outDir, runId);
    await writeReports(report, runDir, secrets, log);
    if (stopped && !options.signal?.aborted) log(`error: ${secrets.redactText(stopped.message)}`);
    return { ...(result ? { result } : {}), report, file: join(runDir, 'report.json'), exitCode: exitCodeOfReport(report) };
  } finally {
    await target.close();
  }
}

/** The preflight: undefined when the target answered, else why it is unreachable (an interruption ends it quietly). */
async function preflight(http: HttpClient, config: FrozenConfig, signal: AbortSignal | undefined): Promise<{ code: string; message: string } | undefined> {
  try {
    await assertReachable(http, config.api.paths.listMessages, { deadlineMs: config.target.timeoutMs, ...(signal ? { signal } : {}) });
    return undefined;
  } catch (err) {
    if (signal?.aborted) return undefined;
    if (isHarnessError(err)) return { code: err.code, message: err.message };
    throw err;
  }
}

/**
 * A probe that ended on a request without an HTTP response (refused, reset, past its deadline) measured a target
 * that went away, not the absence of a limit: the target is lost, and the report keeps what was measured before.
 */
function lostDuring(result: ProbeResult, baseUrl: string): { code: string; message: string } | undefined {
  if (!result.stoppedBy.startsWith(TRANSPORT_STOP)) return undefined;
  const detail = result.stoppedBy.slice(TRANSPORT_STOP.length);
  return {
    code: 'HARNESS_ERR_TARGET_LOST',
    message: `target ${baseUrl} lost during the probe: request ${result.requests + 1} got no HTTP response (${detail}) after ${result.requests} answered; the probe stopped there`,
  };
}

/** The probed credential and, for isolation, another full key (secondKey, or apiKey when secondKey is probed). */
function pickCredentials(creds: CredentialsConfig, name: ProbeCredentialName): { primary: string | undefined; second: string | undefined } {
  if (name === 'none') return { primary: undefined, second: creds.apiKey };
  const primary = creds[name];
  if (primary === undefined) throw new UsageError(`--credential ${name}: the config has no credentials.${name} for this target`);
  const other = name === 'secondKey' ? creds.apiKey : creds.secondKey;
  return { primary, second: other !== undefined && other !== primary ? other : undefined };
}
