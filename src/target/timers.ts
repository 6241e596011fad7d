/**
 * Every delayed action of the target goes through here. Delays repeat (every message waits the same
 * `delivered` and `read` delays), so actions are kept in one FIFO queue per delay — each queue is ordered by due
 * time by construction — with a single timer per queue armed for its head. That is O(1) per scheduled action
 * instead of one libuv timer per message, which matters at thousands of sends per second.
 *
 * Timers are unref()ed (a running test or CLI never waits for a pending status change) and `clearAll()` on
 * close drops everything, so a closed app leaves nothing behind.
 */
interface Pending {
  dueAt: number;
  run: () => void;
}

interface Queue {
  items: Pending[];
  /** Index of the first item not yet run (items before it are dropped in batches, not shifted one by one). */
  head: number;
  timer?: NodeJS.Timeout;
}

export class TimerRegistry {
  readonly #queues = new Map<number, Queue>();
  #closed = false;

  schedule(delayMs: number, fn: () => void): void {
    if (this.#closed) return;
    const delay = Math.max(0, Math.round(delayMs));
    let queue = this.#queues.get(delay);
    if (!queue) {
      queue = { items: [], head: 0 };
      this.#queues.set(delay, queue);
    }
    queue.items.push({ dueAt: performance.now() + delay, run: fn });
    if (!queue.timer) this.#arm(queue);
  }

  /** Actions not yet run. */
  get size(): number {
    let size = 0;
    for (const queue of this.#queues.values()) size += queue.items.length - queue.head;
    return size;
  }

  clearAll(): void {
    this.#closed = true;
    for (const queue of this.#queues.values()) clearTimeout(queue.timer);
    this.#queues.clear();
  }

  #arm(queue: Queue): void {
    const next = queue.items[queue.head];
    if (!next) {
      queue.items = [];
      queue.head = 0;
      queue.timer = undefined;
      return;
    }
    queue.timer = setTimeout(() => this.#drain(queue), Math.max(0, next.dueAt - performance.now()));
    queue.timer.unref();
  }

  #drain(queue: Queue): void {
    const now = performance.now();
    // Timers may fire up to a millisecond early relative to performance.now(); run everything due by then.
    while (!this.#closed && queue.head < queue.items.length && queue.items[queue.head]!.dueAt <= now + 1) {
      queue.items[queue.head++]!.run();
    }
    if (this.#closed) return;
    if (queue.head > 1024 && queue.head * 2 > queue.items.length) {
      queue.items = queue.items.slice(queue.head);
      queue.head = 0;
    }
    this.#arm(queue);
  }
}
