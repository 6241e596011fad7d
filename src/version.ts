/** The harness's own version, from package.json (read once; reports carry it). */
import { readFileSync } from 'node:fs';
import { packageUrl } from './package-root.ts';

const pkg = JSON.parse(readFileSync(packageUrl('package.json'), 'utf8')) as { version: string };

export const HARNESS_VERSION: string = pkg.version;
