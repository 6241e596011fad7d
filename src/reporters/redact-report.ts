/**
 * The last redaction net of every report writer: each string of the report (keys too) goes through the secret
 * registry before it is encoded. Encoding first would hide a secret from substring replacement: JSON writes
 * `"` as `\"`, HTML embedding `<` as `\u003c`, XML `&` as `&amp;`.
 */
import type { SecretRegistry } from '../http/redact.ts';

export function redactStrings<T>(value: T, secrets: SecretRegistry): T {
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: SecretRegistry): unknown {
  if (typeof value === 'string') return secrets.redactText(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [secrets.redactText(key), walk(inner, secrets)]));
  }
  return value;
}
