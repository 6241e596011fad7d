/**
 * vitest setupFile: a test file leaves process.env as it found it. With `isolate: false` the files of a worker share
 * one process.env, so a file that changes it changes what every later file of that worker, and their child
 * processes, run with: a package test that removed the CLI bundle's name once made the files after it start the CLI
 * from the sources. Only the names are reported, never the values (credentials pass through the environment).
 */
import { afterAll, beforeAll } from 'vitest';

let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => before[name] !== process.env[name]).sort();
  if (changed.length > 0) throw new Error(`this test file left process.env changed (${changed.join(', ')}): restore what a test sets, or give its child processes an env of their own`);
});
