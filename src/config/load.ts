/**
 * `loadConfig`: the one way the program gets its config. Reads the file, runs the pipeline (check.ts) and
 * throws a single ConfigError carrying every issue, sorted by line, so a user fixes a file in one pass.
 */
import { ConfigError, type ConfigIssue } from '../errors/harness-errors.ts';
import { checkConfigObject, checkParsedConfig, sortIssues, type ConfigCheck, type LoadOptions } from './check-document.ts';
import { parseYaml } from './parse-yaml.ts';
import { displayPath, readTextFile } from './read-file.ts';
import type { FrozenConfig } from './types.ts';

export { DEFAULT_CONFIG_FILE, findConfigFile } from './config-file.ts';

/**
 * Every issue of a config file (plus the overrides), or the config. Throws only FileNotFoundError.
 * With no file, the defaults and the overrides alone are checked.
 */
export function checkConfigFile(file: string | undefined, options: LoadOptions = {}): ConfigCheck {
  if (file === undefined) return checkParsedConfig(undefined, undefined, options);
  const text = readTextFile(file);
  const shown = displayPath(file);
  const parsed = parseYaml(text, shown);
  const result = parsed.ok ? checkParsedConfig(parsed.parsed, shown, options) : { issues: parsed.issues };
  return { ...result, issues: sortIssues(result.issues) };
}

/**
 * The config from `file` (a YAML file; none: defaults only) with `options.overrides` over it, deep-frozen.
 * @throws FileNotFoundError when the file is missing, a directory or unreadable
 * @throws ConfigError with every problem found
 */
export function loadConfig(file?: string, options: LoadOptions = {}): FrozenConfig {
  return unwrap(checkConfigFile(file, options));
}

/** The issues of a config given as a plain object (library callers, tests); an empty list when valid. */
export function validateConfigObject(data: unknown, options: LoadOptions & { file?: string } = {}): ConfigIssue[] {
  return sortIssues(checkConfigObject(data, options).issues);
}

/** Like loadConfig, for a config given as a plain object. */
export function configFromObject(data: unknown, options: LoadOptions & { file?: string } = {}): FrozenConfig {
  const result = checkConfigObject(data, options);
  return unwrap({ ...result, issues: sortIssues(result.issues) });
}

function unwrap(result: ConfigCheck): FrozenConfig {
  if (result.issues.length > 0 || !result.config) throw new ConfigError(result.issues);
  return result.config;
}
