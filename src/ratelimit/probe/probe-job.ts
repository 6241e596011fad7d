/**
 * `harness probe ratelimit` end to end: open the target (URL or embedded), check it answers, probe one
 * credential's limit (and isolation against another), print the verdict, and write reports/<run-id>/report.json
 * with the `rateLimit` section and no checks.
 */
import { join } from 'node:path';
import type { CredentialsConfig, FrozenConfig } from '../../config/types.ts';
import { UsageError } from '../../errors.ts';
import { HttpClient } from '../../http/client.ts';
import { openTarget } from '../../job/open-target.ts';
import { assertWritableOutDir } from '../../job/out-dir.ts';
import { assertReachable } from '../../job/preflight.ts';
import { runSecrets, writeReports } from '../../job/write-reports.ts';
import { buildReport, newRunId, type Report } from '../../reporters/report.ts';
import { probeRateLimit } from './probe.ts';
import { toRateLimitReport } from './report.ts';
import type { ProbeResult } from './types.ts';
import { formatProbe } from './verdict.ts';
import { silent } from '../../util/silent.ts';

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

export async function runProbeJob(options: ProbeJobOptions): Promise<{ result: ProbeResult; report: Report; file: string }> {
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
    let result: ProbeResult;
    try {
      await assertReachable(http, config.api.paths.listMessages, { deadlineMs: config.target.timeoutMs });
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
    } finally {
      await http.close();
    }
    for (const line of formatProbe(result)) log(secrets.redactText(line));
    const report = buildReport({
      runId,
      startedAt,
      target: target.info,
      rateLimit: toRateLimitReport(result),
      ...(options.signal?.aborted ? { aborted: { code: 'HARNESS_ABORTED', message: 'interrupted: the probe stopped early; the report holds only what it measured until then' } } : {}),
    });
    // The same files as every other command: report.html shows the probe's timeline and findings.
    const runDir = join(config.report.outDir, runId);
    await writeReports(report, runDir, secrets, log);
    return { result, report, file: join(runDir, 'report.json') };
  } finally {
    await target.close();
  }
}

/** The probed credential and, for isolation, another full key (secondKey, or apiKey when secondKey is probed). */
function pickCredentials(creds: CredentialsConfig, name: ProbeCredentialName): { primary: string | undefined; second: string | undefined } {
  if (name === 'none') return { primary: undefined, second: creds.apiKey };
  const primary = creds[name];
  if (primary === undefined) throw new UsageError(`--credential ${name}: the config has no credentials.${name} for this target`);
  const other = name === 'secondKey' ? creds.apiKey : creds.secondKey;
  return { primary, second: other !== undefined && other !== primary ? other : undefined };
}
