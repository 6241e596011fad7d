/**
 * What the check runner tells the world while it runs, and the sink it tells it to: declared here, at the
 * runner's own level, so the runner never imports the event bus of the layers above it (src/report/events.ts
 * adds the run's own events to these, and its EventBus is such a sink).
 */
import type { CheckResult } from './result.ts';

export type CheckEvent =
  | { type: 'suite-started'; suite: string; title: string; checks: number }
  | { type: 'check-started'; id: string; suite: string; title: string }
  | { type: 'check-finished'; result: CheckResult }
  | { type: 'suite-finished'; suite: string };

export interface CheckEventSink {
  emit(event: CheckEvent): Promise<void>;
}
