#!/usr/bin/env node
// Entry point of the `harness` command.
// - Installed package: runs the build (dist/, plain JavaScript, no TypeScript loader at run time).
// - Development checkout (src/cli/main.ts is present; the tarball ships no sources): runs the TypeScript
//   sources through tsx (a devDependency), so `npm ci && npm start` works without a build step and never runs
//   a stale dist/ after an edit. ARCHITECTURE.md "Packaging" explains the choice.
// - HARNESS_CLI_ENTRY=<path to a built src/cli/main.js>: runs that build instead (the test suite's, see
//   test/setup/cli-build.ts).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// A reader that stops reading (`harness --help | head`) closes the pipe: the next write fails with EPIPE, which
// Node raises as an unhandled 'error' event with a stack trace. Nobody is left to read anything: end quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const sources = new URL('../src/cli/main.ts', import.meta.url);
let main;
if (process.env.HARNESS_CLI_ENTRY) {
  // A build of the sources made elsewhere (the test suite compiles once and names it here, so that hundreds of
  // child processes do not each run the sources through tsx). Not for users: unset, nothing changes.
  ({ main } = await import(pathToFileURL(process.env.HARNESS_CLI_ENTRY).href));
} else if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import('../dist/src/cli/main.js'));
}
const code = await main(process.argv);
// 105 (ExitCode.Interrupted): the command was interrupted and has written its report, so end now. Left to end on
// its own (the event loop draining), a second SIGINT 50 ms after the first killed the process by signal instead
// of the documented 105 in about one run in four (test/integration/cli/signals.test.ts); exiting at once: 0 in 20.
if (code === 105) process.exit(code);
// 70 (ExitCode.Internal): a bug ended the command somewhere in the middle; whatever it had opened (an embedded
// target listening, a timer) would keep the process alive after "internal error" was printed. End now.
if (code === 70) process.exit(code);
process.exitCode = code;
