/**
 * `${VAR}` references in string values, resolved from the environment before validation, so secrets live in
 * the environment and the file can be committed. Grammar (a subset of POSIX shell, on purpose):
 *   ${NAME}            the variable; unset is an error (set but empty is fine)
 *   ${NAME:-default}   the variable, or `default` when it is unset or empty
 *   $${                a literal "${"
 * Only values are interpolated, never keys: a key decides what an option means and must be readable as is.
 */
import { Scalar, isMap, isPair, isScalar, isSeq, type Document } from 'yaml';
import type { KeyPath } from './key-path.ts';
import type { RawIssue } from './schema-issues.ts';

export type Env = Record<string, string | undefined>;

const TOKEN = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** The interpolated text, or the problems that prevented it (every one in the string, not just the first). */
export function interpolateString(text: string, env: Env): { value: string; problems: string[] } {
  const problems: string[] = [];
  const value = text.replace(TOKEN, (match: string, inner: string | undefined) => {
    if (match === '$${') return '${';
    if (inner === undefined) {
      problems.push('unterminated "${": close it with "}" (write "$${" for a literal "${")');
      return '';
    }
    const ref = REFERENCE.exec(inner);
    if (!ref) {
      problems.push(`"\${${inner}}" is not a valid reference: use \${NAME} or \${NAME:-default}`);
      return '';
    }
    const [, name = '', fallback] = ref;
    const current = env[name];
    if (fallback !== undefined) return current === undefined || current === '' ? fallback : current;
    if (current === undefined) {
      problems.push(`environment variable ${name} is not set (write \${${name}:-} to make it optional)`);
      return '';
    }
    return current;
  });
  return { value, problems };
}

/**
 * Turns the text a plain (unquoted) scalar got from the environment into the type the option wants, so
 * `port: ${PORT:-0}` gives a number like `port: 0` would. Return the text unchanged to keep a string.
 */
export type Coerce = (path: KeyPath, text: string) => unknown;

/** Interpolates every string value of `document` in place. Returns one issue per failed value. */
export function interpolateDocument(document: Document, env: Env, coerce?: Coerce): RawIssue[] {
  const issues: RawIssue[] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isPair(pair) && isScalar(pair.key)) visit(pair.value, [...path, String(pair.key.value)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    } else if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) {
      const { value, problems } = interpolateString(node.value, env);
      for (const message of problems) issues.push({ path, message });
      node.value = node.type === Scalar.PLAIN && coerce ? coerce(path, value) : value;
    }
  };
  visit(document.contents, []);
  return issues;
}
