/**
 * Which config file `harness` reads when none is named. Apart from the pipeline (load.ts), so a command's flags
 * can name the default without loading the schemas and the validator.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The file `harness` reads when none is named. */
export const DEFAULT_CONFIG_FILE = 'harness.config.yaml';

/** `harness.config.yaml` in `dir` when it exists; undefined means "built-in defaults". */
export function findConfigFile(dir: string = process.cwd()): string | undefined {
  const candidate = join(dir, DEFAULT_CONFIG_FILE);
  return existsSync(candidate) ? candidate : undefined;
}
