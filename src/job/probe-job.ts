/**
 * `harness probe ratelimit` end to end: open the target (URL or embedded), check it answers, probe one
 * credential's limit (and isolation against another), print the verdict, and write reports/<run-id>/report.json
 * with the `rateLimit` section and no checks. A target that does not answer the preflight is unreachable, one that
 * stops answering while probed is lost: both end with exit 3 and a report that says so (as `run` and `load` do),
 * never with "no limit observed".
 */
import type { CredentialsConfig, FrozenConfig } from '../config/types.ts';
import { UsageError } from '../errors/harness-errors.ts';
import { HttpClient } from '../http/client.ts';
import { probeRateLimit, TRANSPORT_STOP } from '../ratelimit/probe/probe.ts';
import type { ProbeResult } from '../ratelimit/probe/types.ts';
import { formatProbe } from '../ratelimit/probe/verdict.ts';
import { toRateLimitReport } from '../report/probe-report.ts';
import { openSession, type Session, type SessionOutcome, type Stop } from './session.ts';
import type { ProbeCredentialName } from './probe-credentials.ts';
import type { ReportFileOptions } from './write-reports.ts';

export { PROBE_CREDENTIALS } from './probe-credentials.ts';
export type { ProbeCredentialName };

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
  /** Options of the report files' printers. @default none */
  reportFiles?: ReportFileOptions;
}

export interface ProbeJobOutcome extends SessionOutcome {
  /** What the probe measured; absent when the target did not answer the preflight (nothing was probed). */
  result?: ProbeResult;
}

const INTERRUPTED_MESSAGE = 'interrupted: the probe stopped early; the report holds only what it measured until then';

export async function runProbeJob(options: ProbeJobOptions): Promise<ProbeJobOutcome> {
  const session = await openSession(options);
  const result = await session.run(async () => {
    const { primary, second } = pickCredentials(session.target.credentials, options.credential);
    const http = new HttpClient({ baseUrl: session.target.info.baseUrl, timeoutMs: options.config.target.timeoutMs, retryOn429: false });
    try {
      if (!(await session.reachable(http, INTERRUPTED_MESSAGE))) return undefined;
      const probed = await probe(session, options, http, primary, second);
      const lost = lostDuring(probed, session.target.info.baseUrl);
      if (lost) session.stop(lost);
      return probed;
    } finally {
      await http.close();
    }
  });
  if (result) for (const line of formatProbe(result)) session.log(line);
  session.noteInterruption(INTERRUPTED_MESSAGE);
  // The same files as every other command: report.html shows the probe's timeline and findings.
  const outcome = await session.finish(result ? { rateLimit: toRateLimitReport(result) } : {});
  session.sayStopped();
  return { ...(result ? { result } : {}), ...outcome };
}

async function probe(session: Session, options: ProbeJobOptions, http: HttpClient, primary: string | undefined, second: string | undefined): Promise<ProbeResult> {
  const { config } = options;
  const { info } = session.target;
  session.log(`probe ratelimit: ${info.baseUrl}${info.embedded ? ' (embedded reference target)' : ''}, credential ${options.credential}, `
    + `at most ${options.maxRps} req/s, ${options.budgetRequests} requests, ${options.budgetSeconds} s`);
  return probeRateLimit({
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
    ...(session.signal ? { signal: session.signal } : {}),
  });
}

/**
 * A probe that ended on a request without an HTTP response (refused, reset, past its deadline) measured a target
 * that went away, not the absence of a limit: the target is lost, and the report keeps what was measured before.
 */
function lostDuring(result: ProbeResult, baseUrl: string): Stop | undefined {
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
