/**
 * A reporter that shows what it is given (the console reporter, a caller's own) sees every event with its strings
 * already through the secret registry: the file reporters redact what they write themselves, but a console line
 * built from an event (a target URL with userinfo, a notice, an abort message) would otherwise go out as is.
 */
import type { HarnessEvent, Reporter } from '../report/events.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { redactStrings } from '../report/redact-report.ts';

export function redactingReporter(reporter: Reporter, secrets: SecretRegistry): Reporter {
  return {
    name: reporter.name,
    onEvent: (event: HarnessEvent) => reporter.onEvent(redactStrings(event, secrets)),
  };
}
