// The replay's clock: time moves only when the fold says so, to each event's time, and the
// machines' timers (a snackbar that closes by itself, a countdown that ticks each second) fire
// on the way in order, each at its own time, as they did in the visitor's browser.

interface Timer {
  due: number;
  fn: () => void;
}

/** Fits XState's actor option `clock` (setTimeout, clearTimeout). */
export class ReplayClock {
  private timers = new Map<number, Timer>();
  private nextId = 1;

  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + Math.max(0, timeout), fn });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.timers.delete(id as number);
  }

  /** Moves to `time` (never back), firing each timer due on the way at its own time. */
  advanceTo(time: number): void {
    for (;;) {
      let next: [number, Timer] | null = null;
      for (const entry of this.timers) {
        if (entry[1].due <= time && (next === null || entry[1].due < next[1].due)) next = entry;
      }
      if (next === null) break;
      this.timers.delete(next[0]);
      this.time = Math.max(this.time, next[1].due);
      next[1].fn();
    }
    this.time = Math.max(this.time, time);
  }
}
