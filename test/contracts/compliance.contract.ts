import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallLedger } from '../../src/modules/compliance/application/ports/call-ledger.js';
import { CompliancePolicyRepository } from '../../src/modules/compliance/application/ports/compliance-policy.repository.js';
import { DecisionLog } from '../../src/modules/compliance/application/ports/decision-log.js';
import { RecipientLocks } from '../../src/modules/compliance/application/ports/recipient-locks.js';
import {
  DEFAULT_POLICY,
  type CompliancePolicy,
} from '../../src/modules/compliance/domain/compliance-policy.js';
import type { NewComplianceDecision } from '../../src/modules/compliance/domain/compliance-decision.js';

export interface ComplianceHarness {
  policies: CompliancePolicyRepository;
  ledger: CallLedger;
  decisions: DecisionLog;
  locks: RecipientLocks;
  uow: UnitOfWork;
  /** False on embedded PGlite, which runs one transaction at a time whatever the locks. */
  concurrentTransactions: boolean;
  /** An organization the adapters may write for (the SQL tables reference organizations). */
  organization(): Promise<string>;
  close(): Promise<void>;
}

const at = (iso: string) => new Date(iso);

/** The compliance module's ports: the in-memory fakes answer as the SQL adapters do. */
export function complianceContract(name: string, setup: () => Promise<ComplianceHarness>): void {
  describe(`compliance ports contract: ${name}`, () => {
    let h: ComplianceHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it("holds a number's lock until its transaction ends, committed or rolled back; other numbers and organizations go on", async () => {
      const org = await h.organization();
      const other = await h.organization();
      const order: string[] = [];
      let letFirstEnd!: () => void;
      const firstMayEnd = new Promise<void>((resolve) => (letFirstEnd = resolve));
      let firstHolds!: () => void;
      const firstHolding = new Promise<void>((resolve) => (firstHolds = resolve));
      const first = h.uow.run(async (tx) => {
        // Twice in one transaction: a holder takes its own lock again without waiting.
        await h.locks.lock(tx, org, ['+15550100002', '+15550100001']);
        await h.locks.lock(tx, org, ['+15550100001']);
        firstHolds();
        await firstMayEnd;
        order.push('first ends');
        throw new Error('rolled back');
      });
      await firstHolding;
      if (h.concurrentTransactions) {
        // Another number, and the same number in another organization, are not held.
        await h.uow.run((tx) => h.locks.lock(tx, org, ['+15550100003']));
        await h.uow.run((tx) => h.locks.lock(tx, other, ['+15550100001']));
      }
      const second = h.uow.run(async (tx) => {
        await h.locks.lock(tx, org, ['+15550100001', '+15550100001']);
        order.push('second holds');
      });
      letFirstEnd();
      await expect(first).rejects.toThrow('rolled back');
      await second;
      expect(order).toEqual(['first ends', 'second holds']);
      // Released at the end of a committed transaction too.
      await h.uow.run((tx) => h.locks.lock(tx, org, ['+15550100002']));
      await h.uow.run((tx) => h.locks.lock(tx, org, ['+15550100002']));
    });

    it('keeps a policy per organization; none until set', async () => {
      const org = await h.organization();
      const other = await h.organization();
      expect(await h.policies.find(org)).toBeNull();
      const policy: CompliancePolicy = {
        ...DEFAULT_POLICY,
        quietHours: { start: '09:00', end: '20:00' },
        maxCallsPerNumber: { per24h: 2, per7d: null },
        restrictedDates: [{ date: '2026-12-25', reason: 'Christmas Day' }],
      };
      await h.policies.save(org, policy, at('2026-11-26T12:00:00Z'), null);
      expect(await h.policies.find(org)).toEqual(policy);
      await h.policies.save(org, DEFAULT_POLICY, at('2026-11-26T13:00:00Z'), null);
      expect(await h.policies.find(org)).toEqual(DEFAULT_POLICY);
      expect(await h.policies.find(other)).toBeNull();
    });

    it("reads each number's calls since a time, per organization, and forgets old ones as it records", async () => {
      const org = await h.organization();
      const other = await h.organization();
      const [a, b] = ['+15550100001', '+15550100002'];
      await h.uow.run(async (tx) => {
        await h.ledger.record(
          tx,
          org,
          [
            { phoneNumber: a, callLogId: 1, placedAt: at('2026-11-10T10:00:00Z') },
            { phoneNumber: a, callLogId: 2, placedAt: at('2026-11-25T10:00:00Z') },
            { phoneNumber: b, callLogId: 3, placedAt: at('2026-11-26T09:00:00Z') },
          ],
          at('2026-01-01T00:00:00Z'),
        );
        await h.ledger.record(
          tx,
          other,
          [{ phoneNumber: a, callLogId: 4, placedAt: at('2026-11-26T09:30:00Z') }],
          at('2026-01-01T00:00:00Z'),
        );
      });
      const read = (since: string) =>
        h.uow.run((tx) => h.ledger.recentCalls(tx, org, [a, b, '+15550100003'], at(since)));
      expect(await read('2026-11-01T00:00:00Z')).toEqual(
        new Map([
          [a, [at('2026-11-10T10:00:00Z'), at('2026-11-25T10:00:00Z')]],
          [b, [at('2026-11-26T09:00:00Z')]],
        ]),
      );
      expect(await read('2026-11-20T00:00:00Z')).toEqual(
        new Map([
          [a, [at('2026-11-25T10:00:00Z')]],
          [b, [at('2026-11-26T09:00:00Z')]],
        ]),
      );
      // Recording a's next call forgets its entries before the bound, and only a's, only here.
      await h.uow.run((tx) =>
        h.ledger.record(
          tx,
          org,
          [{ phoneNumber: a, callLogId: 5, placedAt: at('2026-11-26T10:00:00Z') }],
          at('2026-11-18T10:00:00Z'),
        ),
      );
      expect(await read('2026-01-01T00:00:00Z')).toEqual(
        new Map([
          [a, [at('2026-11-25T10:00:00Z'), at('2026-11-26T10:00:00Z')]],
          [b, [at('2026-11-26T09:00:00Z')]],
        ]),
      );
      const theirs = await h.uow.run((tx) =>
        h.ledger.recentCalls(tx, other, [a], at('2026-01-01T00:00:00Z')),
      );
      expect(theirs).toEqual(new Map([[a, [at('2026-11-26T09:30:00Z')]]]));
    });

    it('pages decisions oldest first, filtered by campaign and time, and walks them in batches', async () => {
      const org = await h.organization();
      const [c1, c2] = [randomUUID(), randomUUID()];
      const decision = (campaignId: string, minute: number): NewComplianceDecision => ({
        organizationId: org,
        campaignId,
        targetId: randomUUID(),
        rule: 'quiet_hours',
        action: 'deferred',
        reason: `decision at minute ${minute}`,
        timeZone: 'America/Chicago',
        localTime: '2026-11-26 06:00',
        deferredUntil: at('2026-11-26T14:00:00Z'),
        decidedAt: new Date(Date.UTC(2026, 10, 26, 12, minute)),
      });
      // Two decisions share an instant: the id orders them.
      const made = [decision(c1, 3), decision(c2, 1), decision(c1, 2), decision(c1, 2)];
      await h.uow.run((tx) => h.decisions.record(tx, made));
      const all = { organizationId: org, campaignId: null, from: null, to: null };
      const page = await h.decisions.page(all, 0, 10);
      expect(page.total).toBe(4);
      expect(page.decisions.map((d) => d.reason)).toEqual([
        'decision at minute 1',
        'decision at minute 2',
        'decision at minute 2',
        'decision at minute 3',
      ]);
      expect(page.decisions[1].id).toBeLessThan(page.decisions[2].id);
      expect(page.decisions[0]).toEqual({ ...made[1], id: page.decisions[0].id });
      const c1Only = await h.decisions.page({ ...all, campaignId: c1 }, 1, 1);
      expect(c1Only.total).toBe(3);
      expect(c1Only.decisions.map((d) => d.reason)).toEqual(['decision at minute 2']);
      // A credential limited to campaigns: its campaigns only, and nothing for a campaign beyond them.
      const limited = { ...all, campaignIds: [c2] };
      expect((await h.decisions.page(limited, 0, 10)).decisions).toEqual([page.decisions[0]]);
      expect(await h.decisions.after(limited, null, 10)).toEqual([page.decisions[0]]);
      expect(await h.decisions.page({ ...limited, campaignId: c1 }, 0, 10)).toEqual({
        decisions: [],
        total: 0,
      });
      expect((await h.decisions.page({ ...limited, campaignId: c2 }, 0, 10)).total).toBe(1);
      const windowed = await h.decisions.page(
        { ...all, from: at('2026-11-26T12:02:00Z'), to: at('2026-11-26T12:03:00Z') },
        0,
        10,
      );
      expect(windowed.decisions.map((d) => d.decidedAt.toISOString())).toEqual([
        '2026-11-26T12:02:00.000Z',
        '2026-11-26T12:02:00.000Z',
      ]);
      const first = await h.decisions.after(all, null, 2);
      const rest = await h.decisions.after(all, first[1], 2);
      const none = await h.decisions.after(all, rest[1], 2);
      expect([...first, ...rest].map((d) => d.id)).toEqual(page.decisions.map((d) => d.id));
      expect(none).toEqual([]);
    });
  });
}
