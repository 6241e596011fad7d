/** Closes what a test starts once the test ends, passed or failed, so no server outlives its test. */
import { afterEach } from 'vitest';

interface Closable {
  close(): Promise<unknown>;
}

/**
 * Registers the afterEach in the calling describe block and returns `closing`: wrap what a test starts in it
 * (`const target = closing(await startX())`) and it is closed after that test.
 */
export function closeAfterEach(): <T extends Closable>(started: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    // Last started, first closed: what a test started later may lean on what it started first.
    for (const started of open.splice(0).reverse()) await started.close();
  });
  return (started) => {
    open.push(started);
    return started;
  };
}
