/**
 * Paths inside a config document, as segments (`['api', 'rejectedStatus', 1]`) and as the dotted text users
 * read in messages and write in `overrideSource` (`api.rejectedStatus[1]`).
 */
export type KeyPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`; // a map key such as "my.schema" stays unambiguous
  }
  return out;
}

/**
 * Turns an AJV instancePath (a JSON pointer) into segments, reading `data` so array indexes become numbers.
 */
export function pointerToKeyPath(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let current: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(current) ? Number(key) : key;
    path.push(segment);
    current = isRecord(current) || Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path`, or undefined when any step is missing. */
export function getAt(root: unknown, path: KeyPath): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current)) current = current[String(segment)];
    else return undefined;
  }
  return current;
}
