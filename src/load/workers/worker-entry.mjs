// A load worker thread's entry point while the harness runs from its TypeScript sources: worker threads do not
// inherit the main thread's tsx loader, so it is registered here before the worker's module is imported.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
