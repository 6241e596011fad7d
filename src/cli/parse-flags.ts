/**
 * Flag values → typed values, with errors that name the flag. Commander hands us strings; these parsers make
 * `--port abc` a usage error (exit 2) that says which flag and why, not a NaN deep inside.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findConfigFile } from '../config/config-file.ts';
import { FileNotFoundError, UsageError } from '../errors/harness-errors.ts';

export function integerFlag(flag: string, min: number, max: number) {
  return (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`${flag}: expected a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new UsageError(`${flag}: must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

/** `--workers`: a whole number in 1..256, or `auto`. */
export function workersFlag(flag: string) {
  const integer = integerFlag(flag, 1, 256);
  return (raw: string): number | 'auto' => {
    if (raw.trim() === 'auto') return 'auto';
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`${flag}: expected a whole number or "auto", got "${raw}"`);
    return integer(raw);
  };
}

export function positiveNumberFlag(flag: string) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag}: expected a positive number, got "${raw}"`);
    return value;
  };
}

export function listFlag(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** A comma-separated list that must name something: `--suite ',,,'` is a mistake, not "every suite". */
export function nonEmptyListFlag(flag: string) {
  return (raw: string): string[] => {
    const list = listFlag(raw);
    if (list.length === 0) throw new UsageError(`${flag}: expected one or more comma-separated names, got "${raw}"`);
    return list;
  };
}

export function urlFlag(flag: string) {
  return (raw: string): string => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`${flag}: not a URL: "${raw}" (expected e.g. http://127.0.0.1:8080)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag}: must be an http(s) URL, got "${raw}"`);
    return raw.replace(/\/+$/, '');
  };
}

/**
 * Which config file applies: the one named with --config (it must exist), else ./harness.config.yaml when
 * present, else none (built-in defaults).
 */
export function resolveConfigFile(flagValue: string | undefined, cwd = process.cwd()): string | undefined {
  if (flagValue !== undefined) {
    const file = resolve(cwd, flagValue);
    if (!existsSync(file)) throw new FileNotFoundError(flagValue, 'config file not found (--config)');
    return file;
  }
  return findConfigFile(cwd);
}
