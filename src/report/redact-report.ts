/**
 * The last redaction net of every report writer: each string of the report (keys too) goes through the secret
 * registry before it is encoded. Encoding first would hide a secret from substring replacement: JSON writes
 * `"` as `\"`, HTML embedding `<` as `\u003c`, XML `&` as `&amp;`. The walk is iterative: a report may carry a
 * target's JSON, whatever its depth.
 */
import type { SecretRegistry } from '../http/redact.ts';
import { mapJson } from '../util/deep-json.ts';

export function redactStrings<T>(value: T, secrets: SecretRegistry): T {
  const redact = (text: string): string => secrets.redactText(text);
  return mapJson(value, { onString: redact, onKey: redact }) as T;
}
