#!/usr/bin/env node
// Entry point of the `harness` command. The sources are TypeScript; tsx's loader runs them directly, so
// `npm ci` is the only setup step (no build to remember). `npm run build` emits JavaScript for packaging.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
