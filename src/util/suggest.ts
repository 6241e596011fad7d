/**
 * "Did you mean …?" for unknown keys. Damerau-Levenshtein (optimal string alignment) over normalised names,
 * so `base_url`, `BaseURL` and `baseUrll` all point at `baseUrl`, while a word that is merely different
 * (`colour` among `host`, `port`) gets no suggestion: a wrong hint is worse than none.
 */

/** Edit distance with adjacent transpositions counted as one edit (`tiemoutMs` → `timeoutMs` is 1). */
export function editDistance(a: string, b: string): number {
  return boundedDistance(a, b, Infinity);
}

/**
 * The same distance, or any number above `bound` as soon as the distance is known to exceed it. Three rows reused
 * instead of a fresh matrix per pair: `harness validate` of a file with 15 000 unknown check ids compared each
 * with every known id through a newly allocated matrix (206 s); length differences and rows whose every cell is
 * past the bound end a comparison early.
 */
function boundedDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  let row = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      row[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length]!;
}

/** The former full-matrix version, kept only as the reference the bounded one is tested against. */
export function matrixDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const prev = d[i - 1]!;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/** Case, `_` and `-` carry no meaning for matching: YAML users write snake_case and kebab-case too. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Most edits still called "close": about one in three characters, at least 1, at most 3. */
function tolerance(length: number): number {
  return Math.min(3, Math.max(1, Math.floor(length / 3)));
}

/** The nearest candidate when it is close enough to be a likely misspelling, else undefined. */
export function suggestKey(unknown: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalise(unknown);
  let best: string | undefined;
  let bestDistance = Infinity;
  // No candidate further than the largest tolerance (3) can be suggested: the search never computes past it.
  const limit = tolerance(Infinity);
  for (const candidate of candidates) {
    const distance = boundedDistance(wanted, normalise(candidate), Math.min(limit, bestDistance - 1));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined || bestDistance > limit) return undefined;
  return bestDistance <= tolerance(Math.max(wanted.length, normalise(best).length)) ? best : undefined;
}
