/** Every scheduling decision reads time here, so tests can move time instead of sleeping. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
