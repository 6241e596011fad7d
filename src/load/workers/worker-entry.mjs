// A load worker thread's entry point while the harness runs from its TypeScript sources: worker threads do not
// inherit the main thread's tsx loader, so it is registered here before the worker's module is imported. In the
// test suite HARNESS_CLI_ENTRY names a build of these same sources with worker-main.js beside it
// (test/setup/cli-build.ts): a worker started by a test runs that, instead of compiling the sources again.
import { pathToFileURL } from 'node:url';

if (process.env.HARNESS_CLI_ENTRY) {
  await import(new URL('./worker-main.js', pathToFileURL(process.env.HARNESS_CLI_ENTRY)).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker-main.ts');
}
