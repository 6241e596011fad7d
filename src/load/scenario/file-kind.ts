/**
 * `harness validate scenarios/x.yaml`: scenario files are told from configs by their top-level `executor:` or
 * `requests:` or `flow:` (a config has none of them) and checked with the scenario pipeline.
 */
import { isRecord } from '../../config/key-path.ts';
import { registerFileKind, type FileKind } from '../../config/file-kinds.ts';
import { checkScenarioDocument } from './load.ts';

export const SCENARIO_KIND: FileKind = {
  kind: 'scenario',
  detect: (doc) => isRecord(doc.data) && ('executor' in doc.data || 'requests' in doc.data || 'flow' in doc.data),
  validate: (doc, file, _text, env) => checkScenarioDocument(doc.document, doc.lines, file, env).issues,
};

let registered = false;

/** Registers the scenario kind with `harness validate` (idempotent). */
export function registerScenarioFileKind(): void {
  if (registered) return;
  registerFileKind(SCENARIO_KIND);
  registered = true;
}
