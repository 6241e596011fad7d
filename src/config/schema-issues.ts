/**
 * AJV errors → plain-English issues. AJV's own texts ("must NOT have additional properties", "must match
 * pattern ...") name schema keywords; users need the key, the rule and, for a misspelling, the fix.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { formatKeyPath, pointerToKeyPath, type KeyPath } from './key-path.ts';
import type { SchemaNode } from './schema.ts';
import { suggestKey } from '../util/suggest.ts';
import { suggestPathElsewhere } from './key-index.ts';

/** An issue before it is given a place (file position or flag name). */
export interface RawIssue {
  path: KeyPath;
  message: string;
  suggestion?: string;
  /** Point at the key itself rather than its value (unknown keys: the value is irrelevant). */
  atKey?: boolean;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping (key: value pairs)',
  array: 'a list',
  null: 'empty',
};

function parentSchema(error: ErrorObject): SchemaNode {
  return (error.parentSchema ?? {}) as SchemaNode;
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function message(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params.type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minimum':
      return `must be >= ${String(params.limit)}`;
    case 'maximum':
      // An upper bound that protects the harness (VUs, rates) says why and what to do instead.
      return parentSchema(error).errorMessage ?? `must be <= ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be > ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be < ${String(params.limit)}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} characters`;
    case 'minItems':
      return params.limit === 1 ? 'must not be an empty list' : `must have at least ${String(params.limit)} items`;
    case 'pattern':
    case 'format':
      return parentSchema(error).errorMessage ?? `must be a valid ${String(params.format ?? `value (${error.message ?? ''})`)}`;
    case 'required':
      return `missing required key "${String(params.missingProperty)}"`;
    default:
      return error.message ?? `fails the "${error.keyword}" rule`;
  }
}

/** One issue per AJV error, deduplicated (format and pattern often both fail for one bad value). */
export function schemaIssues(errors: readonly ErrorObject[], data: unknown, root?: SchemaNode): RawIssue[] {
  const out: RawIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // propertyNames reports the bad name's own error (with propertyName) plus a summary: keep the first.
    if (error.keyword === 'propertyNames') continue;
    const path = pointerToKeyPath(error.instancePath, data);
    let issue: RawIssue;
    if (error.keyword === 'additionalProperties') {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(parentSchema(error).properties ?? {});
      issue = { path: [...path, key], message: `unknown key "${key}"`, atKey: true };
      // The nearest key at this level; else the key's full path where it belongs (`baseUrl` → `target.baseUrl`).
      const suggestion = suggestKey(key, known) ?? (root ? suggestPathElsewhere(root, key, formatKeyPath(path)) : undefined);
      if (suggestion !== undefined) issue.suggestion = suggestion;
    } else if (error.keyword === 'uniqueItems') {
      // Point at the repeat, the later of the two equal items.
      const { i, j } = error.params as { i: number; j: number };
      issue = { path: [...path, Math.max(i, j)], message: `repeats ${formatKeyPath([...path, Math.min(i, j)])}` };
    } else if (error.propertyName !== undefined) {
      issue = { path: [...path, error.propertyName], atKey: true, message: `key ${describeValue(error.propertyName)} is not a valid name (letters, digits, ".", "_", "-")` };
    } else {
      issue = { path, message: message(error) };
    }
    const id = `${JSON.stringify(issue.path)} ${issue.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(issue);
    }
  }
  return out;
}
