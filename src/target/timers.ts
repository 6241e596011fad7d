/**
 * Every timer the target schedules goes through here: each is unref()ed (a running test or CLI never waits
 * for a pending status change) and `clearAll()` on close cancels the rest, so a closed app leaves nothing behind.
 */
export class TimerRegistry {
  readonly #pending = new Set<NodeJS.Timeout>();
  #closed = false;

  schedule(delayMs: number, fn: () => void): void {
    if (this.#closed) return;
    const handle = setTimeout(() => {
      this.#pending.delete(handle);
      fn();
    }, delayMs);
    handle.unref();
    this.#pending.add(handle);
  }

  get size(): number {
    return this.#pending.size;
  }

  clearAll(): void {
    this.#closed = true;
    for (const handle of this.#pending) clearTimeout(handle);
    this.#pending.clear();
  }
}
