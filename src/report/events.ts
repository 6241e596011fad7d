/**
 * The typed event stream. Runners emit; reporters only consume (vitest's reporters and schemathesis's
 * engine events have this shape). A reporter that writes a file logs the path itself.
 */
import type { TargetInfo } from '../conformance/context.ts';
import type { CheckEvent } from '../conformance/check-events.ts';
import type { Report } from './report.ts';

export type HarnessEvent =
  | { type: 'run-started'; runId: string; startedAt: string; target: TargetInfo; suites: Array<{ name: string; title: string; checks: number }> }
  /** The check runner's events (src/conformance/check-events.ts): suites and checks started and finished. */
  | CheckEvent
  /** The conformance part is over (every check ran, or the run stopped): before the run-end hooks and the scenarios. */
  | { type: 'checks-finished' }
  | { type: 'notice'; level: 'info' | 'warn'; message: string }
  | { type: 'run-finished'; report: Report; outDir: string };

export type EventType = HarnessEvent['type'];
export type EventOf<T extends EventType> = Extract<HarnessEvent, { type: T }>;

export interface Reporter {
  readonly name: string;
  onEvent(event: HarnessEvent): void | Promise<void>;
}

/** Fans events out to reporters, in order; a reporter's own failure is reported, never swallowed silently. */
export class EventBus {
  readonly #reporters: Reporter[] = [];

  constructor(reporters: Iterable<Reporter> = []) {
    for (const reporter of reporters) this.#reporters.push(reporter);
  }

  add(reporter: Reporter): void {
    this.#reporters.push(reporter);
  }

  async emit(event: HarnessEvent): Promise<void> {
    for (const reporter of this.#reporters) await reporter.onEvent(event);
  }
}
