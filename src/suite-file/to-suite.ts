/**
 * Declarative suites (suites/*.yaml, listed in conformance.suiteFiles) as ordinary suites of ordinary checks:
 * the same runner runs them, so levels, verdicts, evidence, redaction and reports are those of the built-ins.
 */
import type { Check } from '../conformance/check.ts';
import { fail } from '../conformance/outcomes.ts';
import type { Suite } from '../conformance/registry.ts';
import type { Env } from '../config/interpolate.ts';
import { ConfigError, type ConfigIssue } from '../errors/harness-errors.ts';
import { loadSuiteFile, VAR_PLACEHOLDER } from './load.ts';
import type { CheckSpec, ExpectSpec, SuiteSpec, ValueExpectation } from './types.ts';
import { atPointer, checkExpectations, MISSING } from './expectations.ts';
import { describeRequest, newStepState, sendStep } from './send.ts';

/** The expectation with `{{var NAME}}` in expected strings replaced by the captured values. */
function withVars(expect: ExpectSpec, vars: ReadonlyMap<string, string>): ExpectSpec {
  const fill = (entries: Record<string, ValueExpectation> | undefined) =>
    entries &&
    Object.fromEntries(
      Object.entries(entries).map(([key, value]) => [
        key,
        Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v.replace(VAR_PLACEHOLDER, (_, name: string) => vars.get(name) ?? '') : v])),
      ]),
    );
  return { ...expect, ...(expect.headers ? { headers: fill(expect.headers) } : {}), ...(expect.json ? { json: fill(expect.json) } : {}) };
}

function checkOf(suite: string, spec: CheckSpec): Check {
  return {
    id: spec.id,
    suite,
    title: spec.title,
    level: spec.level,
    specRef: spec.specRef,
    clauses: spec.clauses,
    async run(ctx) {
      const state = newStepState();
      for (const [i, step] of spec.steps.entries()) {
        const label = `${step.name ?? (spec.steps.length > 1 ? `step ${i + 1}` : 'the request')} (${describeRequest(step.request, ctx, state)})`;
        const res = await sendStep(ctx, step.request, state);
        checkExpectations(ctx, label, res, step.expect && withVars(step.expect, state.vars));
        for (const [name, pointer] of Object.entries(step.capture ?? {})) {
          const value = atPointer(res.json(), pointer);
          if (value === MISSING || value === null || typeof value === 'object') {
            fail(`${label}: nothing to capture as ${name} at ${pointer || 'the body'}`, { pointer, actual: value === MISSING ? null : value });
          }
          state.vars.set(name, String(value));
        }
      }
    },
  };
}

export function suiteFromSpec(spec: SuiteSpec): Suite {
  return { name: spec.name, title: spec.title, checks: spec.checks.map((c) => checkOf(spec.name, c)) };
}

/** Loads and checks every file, in the order given; every problem of every file in one ConfigError (exit 104). */
export function loadDeclarativeSuites(files: readonly string[], env?: Env): SuiteSpec[] {
  const specs: SuiteSpec[] = [];
  const issues: ConfigIssue[] = [];
  for (const file of files) {
    try {
      specs.push(loadSuiteFile(file, env));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      for (const issue of err.issues) issues.push(issue);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return specs;
}
