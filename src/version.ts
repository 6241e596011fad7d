/** The harness's own version, from package.json (read once; reports carry it). */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const HARNESS_VERSION: string = pkg.version;
