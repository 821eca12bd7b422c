/**
 * The app's clock: what "now" is for the rules that go by the calendar (which payout periods are
 * due, the dates payouts carry, when the embedded payout provider settles). It is the system's
 * clock, unless TEST_CLOCK is on: then an admin may move it forward (never back), as a payment
 * provider's test clock lets a test reach the 1st of next month without waiting for it. The
 * database's own now() (when rows are written, when jobs fall due) keeps the system's time.
 */
export class AppClock {
  #offsetMs = 0;

  constructor(
    /** Whether an admin may move it (TEST_CLOCK). */
    readonly adjustable: boolean,
    private readonly systemNow: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(this.systemNow() + this.#offsetMs);
  }

  /** How far ahead of the system's clock it runs. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Moves the clock forward to `to`; a time already passed leaves it where it is (moving back
   * would let a period be run before it is due). Answers whether it moved.
   */
  advanceTo(to: Date): boolean {
    if (!this.adjustable) throw new Error('The app clock is the system clock (TEST_CLOCK is off)');
    const ahead = to.getTime() - this.now().getTime();
    if (!(ahead > 0)) return false;
    this.#offsetMs += ahead;
    return true;
  }
}
