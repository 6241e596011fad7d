/**
 * Progress while the checks run, so a 150-check run never looks stuck. On a TTY: one live line redrawn in place
 * (checks done/total, elapsed, the check running now), cleared before any other output and drawn again after it,
 * refreshed every second. Without a TTY (CI logs, pipes): a plain line every `everyMs` (15 s by default).
 * The line fits the terminal: the check's name is shortened, the counts are never cut.
 */
export interface CheckProgressOptions {
  write: (text: string) => void;
  /** Draw a live line (a TTY, not CI). */
  live: boolean;
  /** Terminal width for the live line. @default 80 */
  columns?: () => number | undefined;
  /** Plain lines without a TTY, at most this often. @default 15000 */
  everyMs?: number;
  now?: () => number;
}

const CLEAR = '\r\x1b[2K';

export class CheckProgress {
  readonly #o: Required<Omit<CheckProgressOptions, 'columns'>> & { columns: () => number | undefined };
  #total = 0;
  #done = 0;
  #current = '';
  #startedAt = 0;
  #lastPlain = 0;
  #drawn = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: CheckProgressOptions) {
    this.#o = { everyMs: 15_000, now: Date.now, columns: () => undefined, ...options };
  }

  start(total: number): void {
    this.#total = total;
    this.#done = 0;
    this.#startedAt = this.#o.now();
    this.#lastPlain = this.#startedAt;
    // The elapsed time moves even while one check takes long; unref: never keeps the process alive.
    if (this.#o.live) this.#timer = setInterval(() => this.#draw(), 1000).unref();
  }

  checkStarted(id: string): void {
    this.#current = id;
    if (this.#o.live) this.#draw();
  }

  checkFinished(): void {
    this.#done++;
    if (this.#o.live) return this.#draw();
    const now = this.#o.now();
    if (now - this.#lastPlain >= this.#o.everyMs && this.#done < this.#total) {
      this.#lastPlain = now;
      this.#o.write(`progress: ${this.#counts()}, last: ${this.#current}\n`);
    }
  }

  /** Clears the live line so other output starts at column 0; call `redraw` after writing it. */
  clear(): void {
    if (this.#drawn) this.#o.write(CLEAR);
    this.#drawn = false;
  }

  redraw(): void {
    if (this.#o.live && this.#timer) this.#draw();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.clear();
  }

  #counts(): string {
    const s = Math.floor((this.#o.now() - this.#startedAt) / 1000);
    return `checks ${this.#done}/${this.#total} · ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} elapsed`;
  }

  #draw(): void {
    this.#o.write(`${CLEAR}${fitLine(this.#counts(), this.#current, this.#o.columns() ?? 80)}`);
    this.#drawn = true;
  }
}

/**
 * `counts · name` within `columns - 1` characters: the name is shortened with "…" (or left out), the counts are
 * never cut. Also used by the load progress line.
 */
export function fitLine(counts: string, name: string, columns: number): string {
  const room = columns - 1 - counts.length - 3;
  if (!name || room < 4) return counts;
  return `${counts} · ${name.length <= room ? name : `${name.slice(0, room - 1)}…`}`;
}
