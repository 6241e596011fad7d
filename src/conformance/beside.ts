/**
 * Checks that run beside others. Checks run one after another because they share a target, its rate limits and
 * its accounts; but a check whose time goes into waiting for the target to change by itself (a JWT to expire)
 * holds nothing while it waits. Such a check names the suites it may run beside (`Check.besideSuites`): suites
 * whose checks change nothing it relies on and judge nothing it sends. The runner starts it when the run reaches
 * the first of those suites after its own, runs their checks meanwhile, and waits for it before any suite it did
 * not name (and before the run's checks end). Where none of its suites follows it in the run (`--suite auth`),
 * or it is skipped, it runs in its place like any other check. Its result keeps its place in the report.
 */
import type { Check } from './check.ts';
import type { Suite } from './registry.ts';

export interface BesidePlan {
  /** Checks the run starts at the beginning of `suite`, to run beside it (and the named suites after it). */
  startAt(suite: string): readonly Check[];
  /** Whether the check `id` was moved out of its place (it is started by `startAt`, not in its suite's turn). */
  moved(id: string): boolean;
}

/** When a check ran: [start, end] in performance.now() milliseconds. */
export type Span = readonly [number, number];

export function planBeside(suites: readonly Suite[], skipChecks: ReadonlySet<string> = new Set()): BesidePlan {
  const starts = new Map<string, Check[]>();
  const moved = new Set<string>();
  suites.forEach((suite, index) => {
    for (const check of suite.checks) {
      const named = check.besideSuites;
      if (!named?.length || skipChecks.has(check.id)) continue;
      const host = suites.slice(index + 1).find((later) => named.includes(later.name));
      if (!host) continue;
      starts.set(host.name, [...(starts.get(host.name) ?? []), check]);
      moved.add(check.id);
    }
  });
  return {
    startAt: (suite) => starts.get(suite) ?? [],
    moved: (id) => moved.has(id),
  };
}

/**
 * Of each check that ran beside others (`beside`), the milliseconds of its span that other checks' spans covered
 * too — those in their places, and those beside it that ended first — so that the run's time, summed over checks,
 * counts each moment once (junit.xml): its own time is its duration less this.
 */
export function overlapMs(spans: ReadonlyMap<string, Span>, beside: (id: string) => boolean): Map<string, number> {
  let counted: Array<[number, number]> = [];
  const add = (span: Span) => {
    counted = merge([...counted, [span[0], span[1]]]);
  };
  for (const [id, span] of spans) if (!beside(id)) add(span);
  const out = new Map<string, number>();
  const movedSpans = [...spans].filter(([id]) => beside(id)).sort((a, b) => a[1][1] - b[1][1]);
  for (const [id, span] of movedSpans) {
    out.set(id, counted.reduce((sum, [from, to]) => sum + Math.max(0, Math.min(to, span[1]) - Math.max(from, span[0])), 0));
    add(span);
  }
  return out;
}

function merge(spans: Array<[number, number]>): Array<[number, number]> {
  const sorted = spans.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** The checks running beside the run's own order, and waiting for them. */
export class BesideLane {
  readonly #running = new Set<{ suites: readonly string[]; done: Promise<void> }>();

  /** Starts `run` (the check's whole run, result recorded by the caller) beside whatever runs next. */
  start(check: Check, run: () => Promise<void>): void {
    const entry = { suites: check.besideSuites ?? [], done: run() };
    // A failure surfaces when the entry is joined; until then it must not count as unhandled.
    entry.done.catch(() => undefined);
    this.#running.add(entry);
  }

  /** Waits for every running check that may not run beside `suite`. */
  async joinFor(suite: string): Promise<void> {
    await this.#join((entry) => !entry.suites.includes(suite));
  }

  /** Waits for every running check. */
  async joinAll(): Promise<void> {
    await this.#join(() => true);
  }

  async #join(which: (entry: { suites: readonly string[] }) => boolean): Promise<void> {
    const due = [...this.#running].filter(which);
    for (const entry of due) this.#running.delete(entry);
    const outcomes = await Promise.allSettled(due.map((entry) => entry.done));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
