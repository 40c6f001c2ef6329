import { PreDialCall, PreDialCheck, PreDialVerdict } from 'campaign-calling-service';

/**
 * A team's own consent rule: numbers that opted out are never called, and numbers whose consent is
 * being asked for wait until the answer is due. Registered with `preDialChecks: [new OptOutCheck()]`.
 */
export class OptOutCheck extends PreDialCheck {
  readonly name = 'opt_out';
  readonly optedOut = new Set<string>();
  readonly askingUntil = new Map<string, Date>();

  async check(calls: PreDialCall[]): Promise<PreDialVerdict[]> {
    return calls.map((call) => {
      if (this.optedOut.has(call.to)) return { action: 'refuse', reason: 'the number opted out' };
      const until = this.askingUntil.get(call.to);
      if (until) return { action: 'defer', until, reason: 'consent asked, answer pending' };
      return { action: 'call' };
    });
  }
}
