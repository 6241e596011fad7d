/**
 * "Did you mean …?" for unknown keys. Damerau-Levenshtein (optimal string alignment) over normalised names,
 * so `base_url`, `BaseURL` and `baseUrll` all point at `baseUrl`, while a word that is merely different
 * (`colour` among `host`, `port`) gets no suggestion: a wrong hint is worse than none.
 */

/** Edit distance with adjacent transpositions counted as one edit (`tiemoutMs` → `timeoutMs` is 1). */
export function editDistance(a: string, b: string): number {
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
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalise(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= tolerance(Math.max(wanted.length, normalise(best).length)) ? best : undefined;
}
