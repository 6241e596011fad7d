/**
 * `harness validate suites/x.yaml`: suite files are told from configs by their top-level `checks:` (a config has
 * none) and checked with the suite pipeline (load.ts), every problem with file and line.
 */
import { resolve } from 'node:path';
import { isRecord } from '../config/key-path.ts';
import { registerFileKind, type FileKind } from '../config/file-kinds.ts';
import { checkSuiteDocument } from './load.ts';

export const SUITE_KIND: FileKind = {
  kind: 'suite',
  detect: (doc) => isRecord(doc.data) && 'checks' in doc.data,
  validate: (doc, file, _text, env) => checkSuiteDocument(doc.document, doc.lines, file, resolve(file), env).issues,
};

let registered = false;

/** Registers the suite kind with `harness validate` (idempotent). */
export function registerSuiteFileKind(): void {
  if (registered) return;
  registerFileKind(SUITE_KIND);
  registered = true;
}
