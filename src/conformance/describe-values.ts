import type { FrozenConfig } from '../config/types.ts';
import type { Exchange } from '../http/exchange.ts';

/**
 * The value that would describe what a failed PROFILE check observed, for the keys whose value can be read off the
 * check's own evidence: a status, the ownership refusal's kind, whether errors are problem+json. A value is offered
 * only when the evidence is unambiguous (one status of its class, one the config does not already allow), never guessed: a
 * schema, a path or a switch is named by its key alone (`harness init` drafts those from the document and the
 * target).
 */
export type DescribedValue = number | number[] | string | boolean;

const PROBLEM_JSON = /^application\/problem\+json\b/i;
const REFUSAL: Readonly<Record<number, string>> = { 403: 'forbidden', 404: 'not-found' };

function only<T>(values: readonly T[]): T | undefined {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? distinct[0] : undefined;
}

const statuses = (exchanges: readonly Exchange[], keep: (status: number) => boolean): number[] =>
  exchanges.flatMap((e) => (e.response && keep(e.response.status) ? [e.response.status] : []));

/** A client error that says "your request was wrong", not who you are, what exists or how fast you may go. */
const isRejection = (status: number): boolean => status >= 400 && status < 500 && ![401, 403, 404, 405, 415, 429].includes(status);

function valueOf(key: string, exchanges: readonly Exchange[], config: FrozenConfig): DescribedValue | undefined {
  if (key.startsWith('api.successStatus.')) {
    const seen = only(statuses(exchanges, (s) => s >= 200 && s < 300));
    const op = key.slice('api.successStatus.'.length) as keyof FrozenConfig['api']['successStatus'];
    if (!(op in config.api.successStatus)) return undefined;
    return seen !== undefined && seen !== config.api.successStatus[op] ? seen : undefined;
  }
  if (key === 'api.rejectedStatus' || key === 'api.malformedJsonStatus') {
    // A list of the statuses the target may reject with: the one seen joins it.
    const seen = only(statuses(exchanges, isRejection));
    const current = key === 'api.rejectedStatus' ? config.api.rejectedStatus : config.api.malformedJsonStatus;
    return seen !== undefined && !current.includes(seen) ? [...current, seen] : undefined;
  }
  if (key === 'api.ownership.refusal') {
    const seen = only(statuses(exchanges, (s) => s === 403 || s === 404));
    const refusal = seen === undefined ? undefined : REFUSAL[seen];
    return refusal !== undefined && refusal !== config.api.ownership.refusal && config.api.ownership.refusal !== 'either' ? refusal : undefined;
  }
  if (key === 'conformance.profile.problemJson') {
    const errors = exchanges.filter((e) => e.response && e.response.status >= 400);
    const plain = errors.length > 0 && errors.every((e) => !PROBLEM_JSON.test(e.response!.headers['content-type'] ?? ''));
    return plain && config.conformance.profile.problemJson ? false : undefined;
  }
  return undefined;
}

/** Each key whose describing value the evidence shows, with that value; keys it cannot show are left out. */
export function describedValues(keys: readonly string[], exchanges: readonly Exchange[], config: FrozenConfig): Record<string, DescribedValue> {
  const values: Record<string, DescribedValue> = {};
  for (const key of keys) {
    const value = valueOf(key, exchanges, config);
    if (value !== undefined) values[key] = value;
  }
  return values;
}
