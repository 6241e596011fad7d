/**
 * What a response field held, in words, for skip and failure reasons that state what was observed ("its id is a
 * number (42)") rather than guess at why (a send that worked is not "a send that failed").
 */
const SHOWN = 40;

export function whatIs(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${quoted(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `a ${typeof value} (${String(value)})`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return 'an object';
}

function quoted(text: string): string {
  const json = JSON.stringify(text);
  return json.length <= SHOWN ? json : `${json.slice(0, SHOWN)}…"`;
}
