import { Injectable } from '@nestjs/common';

/**
 * The team's own record of who may be called: the numbers each organization's patients opted out
 * with. (In memory here; a real one would ask the team's consent system.)
 */
@Injectable()
export class ConsentService {
  private readonly optedOut = new Map<string, Set<string>>();

  optOut(organizationId: string, phoneNumber: string): void {
    const numbers = this.optedOut.get(organizationId) ?? new Set<string>();
    numbers.add(phoneNumber);
    this.optedOut.set(organizationId, numbers);
  }

  hasOptedOut(organizationId: string, phoneNumber: string): boolean {
    return this.optedOut.get(organizationId)?.has(phoneNumber) ?? false;
  }
}
