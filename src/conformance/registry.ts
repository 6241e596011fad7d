/**
 * The one list of suites and checks. Suites register here; `--suite` and `conformance.suites` select from it;
 * `conformance.skipChecks` must name registered ids (an unknown id is a config error, with a suggestion).
 */
import { ConfigError, UnknownSuiteError, UsageError } from '../errors/harness-errors.ts';
import type { Check } from './check.ts';
import { suggestKey } from '../util/suggest.ts';
import { CLAUSE_IDS } from './spec-clauses.ts';

export interface Suite {
  /** Short name used by `--suite`: `smoke`, `auth`, `pagination`, … */
  name: string;
  title: string;
  checks: readonly Check[];
}

export class CheckRegistry {
  readonly #suites = new Map<string, Suite>();
  readonly #checks = new Map<string, Check>();
  /** Set by `restrictTo` (`harness run --check`): only these checks run; every id stays known (skipChecks). */
  #only: ReadonlySet<string> | undefined;

  register(suite: Suite): this {
    if (this.#suites.has(suite.name)) throw new Error(`suite "${suite.name}" is registered twice`);
    for (const check of suite.checks) {
      if (this.#checks.has(check.id)) throw new Error(`check id "${check.id}" is registered twice`);
      if (check.suite !== suite.name) throw new Error(`check "${check.id}" says suite "${check.suite}" but is in "${suite.name}"`);
      const unknown = check.clauses.filter((clause) => !CLAUSE_IDS.has(clause));
      if (unknown.length > 0) throw new Error(`check "${check.id}" names unknown SERVICE-SPEC clauses: ${unknown.join(', ')}`);
      this.#checks.set(check.id, check);
    }
    this.#suites.set(suite.name, suite);
    return this;
  }

  get suites(): Suite[] {
    return [...this.#suites.values()];
  }

  /** The `restrictTo` ids (`harness run --check`), when set. */
  get restrictedTo(): string[] | undefined {
    return this.#only ? [...this.#only] : undefined;
  }

  get checkIds(): string[] {
    return [...this.#checks.keys()];
  }

  check(id: string): Check | undefined {
    return this.#checks.get(id);
  }

  /**
   * A copy of this registry that runs only the checks `ids` (`harness run --check`). An unknown id is a usage
   * error naming it, with the nearest known id.
   */
  restrictTo(ids: readonly string[]): CheckRegistry {
    const unknown = ids.filter((id) => !this.#checks.has(id));
    if (unknown.length > 0) {
      throw new UsageError(
        unknown
          .map((id) => {
            const suggestion = suggestKey(id, this.checkIds);
            return `--check: unknown check id "${id}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
          })
          .join('\n') + '\n(harness list shows every check id)',
      );
    }
    const copy = new CheckRegistry();
    for (const suite of this.#suites.values()) copy.register(suite);
    copy.#only = new Set(ids);
    return copy;
  }

  /** The named suites in registry order (no names: all of them), holding only the `restrictTo` checks if set. */
  select(names: readonly string[] = []): Suite[] {
    const chosen = this.#selectSuites(names);
    const only = this.#only;
    if (!only) return chosen;
    const narrowed = chosen.map((suite) => ({ ...suite, checks: suite.checks.filter((check) => only.has(check.id)) })).filter((suite) => suite.checks.length > 0);
    if (narrowed.length === 0) {
      throw new UsageError(`--check: ${[...only].join(', ')} ${only.size === 1 ? 'is' : 'are'} not in the selected suites (${names.join(', ')})`);
    }
    return narrowed;
  }

  #selectSuites(names: readonly string[]): Suite[] {
    if (names.length === 0) return this.suites;
    for (const name of names) {
      if (!this.#suites.has(name)) {
        const suggestion = suggestKey(name, [...this.#suites.keys()]);
        throw new UnknownSuiteError(
          `unknown suite "${name}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; available: ${[...this.#suites.keys()].join(', ')}`,
        );
      }
    }
    return this.suites.filter((suite) => names.includes(suite.name));
  }

  /** Throws one ConfigError naming every unknown id in `ids` (from config path `source`). */
  assertKnownChecks(ids: readonly string[], source: string, file?: string): void {
    const issues = ids
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !this.#checks.has(id))
      .map(({ id, index }) => {
        const suggestion = suggestKey(id, this.checkIds);
        return { ...(file ? { file } : {}), path: `${source}[${index}]`, message: `unknown check id "${id}"`, ...(suggestion ? { suggestion } : {}) };
      });
    if (issues.length > 0) throw new ConfigError(issues);
  }
}
