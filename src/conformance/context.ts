/**
 * What a check gets to work with. One context serves the whole run; per-check state (evidence, deadline) is kept
 * by the runner, not here, so checks stay plain functions of the context.
 */
import type { CredentialsConfig, FrozenConfig, Operation } from '../config/types.ts';
import type { HttpClient } from '../http/client.ts';
import type { WebhookStats } from '../webhooks/stats.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { RunConditions } from './conditions.ts';
import { Recoveries } from './recoveries.ts';
import type { SchemaValidator } from './schema-validator.ts';
import type { TrafficLog } from './traffic.ts';

export interface TargetInfo {
  baseUrl: string;
  /** True when the harness started its own reference target for this run. */
  embedded: boolean;
}

export interface CheckContext {
  readonly config: FrozenConfig;
  readonly target: TargetInfo;
  readonly http: HttpClient;
  /** Credentials in effect: the config's, or the embedded target's. */
  readonly credentials: Readonly<CredentialsConfig>;
  readonly schemas: SchemaValidator;
  /** Register every token, code or password the checks obtain, so reports never show it. */
  readonly secrets: SecretRegistry;
  /** Every exchange of the run so far, tagged by check (standing checks read it). */
  readonly traffic: TrafficLog;
  /**
   * The run's own measured conditions (event-loop delay, round trips, send lag: conditions.ts). Every judgement
   * that reads time takes its tolerance from here, for the stretch it judges (`conditions.since(mark)`).
   */
  readonly conditions: RunConditions;
  /**
   * Credentials a check left throttled on purpose, for the runner to let recover before the next check that
   * needs them served (recoveries.ts).
   */
  readonly recoveries: Recoveries;
  /** Path of an operation with `{name}` placeholders filled in. */
  path(operation: Operation, params?: Record<string, string>): string;
  /**
   * Run-wide memo: the first caller computes, later callers share the promise (e.g. one login for every check
   * that needs a JWT). A rejected computation is not cached, so a later check may try again.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Drops a memoised value (an expired token), so the next `memo` call computes it again. */
  forget(key: string): void;
  /**
   * Work for the end of the run, after the last check and before the report is built: closing what checks
   * shared (a webhook receiver), and handing the report what it measured. Hooks run in registration order; one
   * that throws is logged and does not stop the others.
   */
  atRunEnd(hook: RunEndHook): void;
}

/** Report sections a run-end hook may hand over (report.json fields of the same name). */
export interface RunFindings {
  webhooks?: WebhookStats;
}

export type RunEndHook = () => Promise<RunFindings | void> | RunFindings | void;

/** The context as the job holds it: it also ends the run. */
export interface RunContext extends CheckContext {
  /** Runs the run-end hooks once and merges their findings. */
  endRun(log?: (line: string) => void): Promise<RunFindings>;
}

export function createCheckContext(
  parts: Omit<CheckContext, 'path' | 'memo' | 'forget' | 'atRunEnd' | 'conditions' | 'recoveries'> & { conditions?: RunConditions },
): RunContext {
  const memos = new Map<string, Promise<unknown>>();
  const hooks: RunEndHook[] = [];
  return {
    ...parts,
    // A context made without the job's (tests) still measures: the conditions start here, unref'd.
    conditions: parts.conditions ?? new RunConditions().start(),
    recoveries: new Recoveries(),
    path(operation, params = {}) {
      const template = parts.config.api.paths[operation];
      return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
    },
    memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const existing = memos.get(key);
      if (existing) return existing as Promise<T>;
      const created = compute().catch((err: unknown) => {
        memos.delete(key);
        throw err;
      });
      memos.set(key, created);
      return created;
    },
    forget(key) {
      memos.delete(key);
    },
    atRunEnd(hook) {
      hooks.push(hook);
    },
    async endRun(log) {
      const findings: RunFindings = {};
      for (const hook of hooks.splice(0)) {
        try {
          Object.assign(findings, (await hook()) ?? {});
        } catch (err) {
          log?.(`run-end cleanup failed: ${parts.secrets.redactText((err as Error)?.message ?? String(err))}`);
        }
      }
      return findings;
    },
  };
}
