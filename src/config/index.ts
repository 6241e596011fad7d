/** The config module's public surface: load, validate, defaults, secrets, file kinds. */
export { loadConfig, checkConfigFile, validateConfigObject, configFromObject, findConfigFile, DEFAULT_CONFIG_FILE } from './load.ts';
export type { LoadOptions, ConfigCheck } from './check-document.ts';
export { defaultConfig, DEFAULT_ERROR_SCHEMA_ID } from './defaults.ts';
export { collectSecrets } from './secrets.ts';
export { validateFile, checkFile, registerFileKind, fileKinds, CONFIG_KIND, type FileKind, type ParsedFile } from './file-kinds.ts';
export { interpolateString, type Env } from './interpolate.ts';
export { deepFreeze } from './freeze.ts';
export { deepMerge, type DeepPartial } from './merge.ts';
export { formatKeyPath, type KeyPath } from './key-path.ts';
export { HARNESS_CONFIG_SCHEMA_ID, HARNESS_CONFIG_SCHEMA_URL, harnessConfigSchema } from './schema.ts';
export * from './types.ts';
