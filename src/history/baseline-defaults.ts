/**
 * How many history runs make a baseline when none is said. Apart from baseline-runs.ts, so `harness compare`'s
 * help can print it without loading the report model and the percentile maths.
 */

/** Runs of the same label drawn by default (a week of nightly runs, two of a busy main branch). */
export const DEFAULT_LAST = 10;
