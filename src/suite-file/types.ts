/**
 * A declarative suite file (suites/*.yaml, format in schemas/suite.schema.json) as the loader hands it on:
 * schema-valid, semantically checked, paths resolved. to-suite.ts turns it into checks.
 */
import type { Level } from '../conformance/check.ts';
import type { Operation } from '../config/types.ts';

export type SuiteCredential = 'apiKey' | 'secondKey' | 'restrictedKey' | 'jwt' | 'oauth' | 'none';

export interface RequestSpec {
  operation?: Operation;
  params?: Record<string, string>;
  method?: string;
  path?: string;
  query?: Record<string, string | number | boolean>;
  /** @default "apiKey" */
  credential?: SuiteCredential;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ValueExpectation {
  present?: boolean;
  equals?: unknown;
  matches?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
}

export interface ExpectSpec {
  /** @default any 2xx */
  status?: number | number[];
  /** A schemas/api name, a schema $id, or (after loading) an absolute .json file path. */
  schema?: string;
  headers?: Record<string, ValueExpectation>;
  json?: Record<string, ValueExpectation>;
  maxLatencyMs?: number;
}

export interface StepSpec {
  name?: string;
  request: RequestSpec;
  expect?: ExpectSpec;
  capture?: Record<string, string>;
}

export interface CheckSpec {
  id: string;
  title: string;
  level: Level;
  specRef: string;
  clauses: string[];
  /** A single-request check is one step. */
  steps: StepSpec[];
  /** `file:line` of the check, for messages about it after loading (duplicate ids). */
  where: string;
}

export interface SuiteSpec {
  name: string;
  title: string;
  /** The file as messages name it. */
  file: string;
  /** `file:line` of `suite:`. */
  where: string;
  checks: CheckSpec[];
}
