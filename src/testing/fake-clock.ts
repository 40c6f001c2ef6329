import { Clock } from '../common/clock/clock.js';

/** A clock tests move by hand: scheduling decisions read it instead of the system time. */
export class FakeClock extends Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-05T15:00:00.000Z') {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }

  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000);
  }
}
