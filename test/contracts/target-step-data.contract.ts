import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  TargetStepData,
  StepScope,
} from '../../src/modules/target/application/ports/target-step-data.js';
import type { Target } from '../../src/modules/target/domain/target.js';

export type SeedTarget = Partial<Target> & Pick<Target, 'id'>;

export interface TargetStepDataFixture {
  repository: TargetStepData;
  uow: UnitOfWork;
  /** Two campaigns of one organization, and a campaign of another organization. */
  scope: StepScope;
  otherCampaign: StepScope;
  otherOrganization: StepScope;
  /** Stores targets (defaults: Pending, empty input data) in the given scope. */
  seed(scope: StepScope, targets: SeedTarget[]): Promise<void>;
  /**
   * Reads a target back (the target module owns reads of `targets`): the target of that id (of `organizationId` when two organizations have one). */
  findTarget(id: string, organizationId?: string): Promise<Target | null>;
  close(): Promise<void>;
}

let counter = 0;
/** A fresh UUID per call, so one fixture can serve every test. */
export function nextId(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${counter.toString(16).padStart(12, '0')}`;
}

const NOW = new Date('2026-03-01T10:00:00.000Z');
const received = (
  friendlyId = 'labs',
  kind: 'webhook' | 'ehr_event' = 'webhook',
  eventType: string | null = null,
) => ({
  kind,
  friendlyId,
  eventType,
  apiKeyId: null,
  receivedAt: NOW,
});

/** The behaviour every TargetStepData must have; run against the in-memory fake and the SQL adapter. */
export function targetStepDataContract(
  name: string,
  createFixture: () => Promise<TargetStepDataFixture>,
): void {
  describe(`TargetStepData contract: ${name}`, () => {
    let f: TargetStepDataFixture;
    beforeAll(async () => {
      f = await createFixture();
    });
    afterAll(async () => {
      await f?.close();
    });

    const find = (id: string) => f.findTarget(id);

    describe('mergeStepData', () => {
      it('matches by id, by external id or by both, within the scope only', async () => {
        const [a, b, c, foreign] = [nextId(), nextId(), nextId(), nextId()];
        const ext = `ext-${b}`;
        await f.seed(f.scope, [
          { id: a, inputData: { keep: 1, n: { x: 1 } } },
          { id: b, externalId: ext },
          { id: c, externalId: `ext-${c}` },
        ]);
        await f.seed(f.otherCampaign, [{ id: foreign, externalId: `ext-${foreign}` }]);

        const applied = await f.uow.run((tx) =>
          f.repository.mergeStepData(tx, f.scope, received(), [
            { index: 0, targetId: a, data: { n: { y: 2 }, added: true } },
            { index: 1, externalId: ext, data: { b: 1 } },
            { index: 2, targetId: c, externalId: ext, data: { wrong: true } },
            { index: 3, targetId: foreign, data: { wrong: true } },
            { index: 4, externalId: `ext-${foreign}`, data: { wrong: true } },
            { index: 5, targetId: nextId(), data: { wrong: true } },
            { index: 6, targetId: c, externalId: `ext-${c}`, data: { c: 1 } },
          ]),
        );

        expect(applied).toEqual([
          { index: 0, targetId: a, waiting: false },
          { index: 1, targetId: b, waiting: false },
          { index: 6, targetId: c, waiting: false },
        ]);
        expect((await find(a))!.inputData).toEqual({ keep: 1, n: { y: 2 }, added: true });
        expect((await find(a))!.updatedAt).toEqual(NOW);
        expect((await find(b))!.inputData).toEqual({ b: 1 });
        expect((await find(c))!.inputData).toEqual({ c: 1 });
        expect((await find(foreign))!.inputData).toEqual({});
      });

      it('merges several updates of one target in index order and keeps one history row per update', async () => {
        const id = nextId();
        await f.seed(f.scope, [{ id, externalId: `ext-${id}`, inputData: { a: 0, z: 0 } }]);
        const applied = await f.uow.run((tx) =>
          f.repository.mergeStepData(tx, f.scope, received('consent'), [
            { index: 2, externalId: `ext-${id}`, data: { b: 3, c: { x: 1 } } },
            { index: 0, targetId: id, data: { a: 1, b: 1 } },
            { index: 1, targetId: id, data: { b: 2, c: 1 } },
          ]),
        );
        expect(applied).toEqual([
          { index: 0, targetId: id, waiting: false },
          { index: 1, targetId: id, waiting: false },
          { index: 2, targetId: id, waiting: false },
        ]);
        expect((await find(id))!.inputData).toEqual({ a: 1, z: 0, b: 3, c: { x: 1 } });
        const history = await f.repository.history(f.scope.organizationId, id);
        expect(history.map((h) => h.data)).toEqual([
          { a: 1, b: 1 },
          { b: 2, c: 1 },
          { b: 3, c: { x: 1 } },
        ]);
        expect(history[0]).toEqual({
          id: expect.any(String),
          organizationId: f.scope.organizationId,
          campaignId: f.scope.campaignId,
          targetId: id,
          kind: 'webhook',
          friendlyId: 'consent',
          eventType: null,
          data: { a: 1, b: 1 },
          apiKeyId: null,
          receivedAt: NOW,
        });
      });

      it('says which targets wait at the received step, leaving their status to the caller', async () => {
        const [here, elsewhere, noStep, pending] = [nextId(), nextId(), nextId(), nextId()];
        await f.seed(f.scope, [
          { id: here, status: 'Waiting', currentStep: 'labs' },
          { id: elsewhere, status: 'Waiting', currentStep: 'consent' },
          { id: noStep, status: 'Waiting', currentStep: null },
          { id: pending, status: 'Pending', currentStep: null },
        ]);
        const applied = await f.uow.run((tx) =>
          f.repository.mergeStepData(tx, f.scope, received('labs'), [
            { index: 0, targetId: here, data: { a: 1 } },
            { index: 1, targetId: elsewhere, data: { a: 1 } },
            { index: 2, targetId: noStep, data: { a: 1 } },
            { index: 3, targetId: pending, data: { a: 1 } },
            { index: 4, targetId: here, data: { b: 1 } },
          ]),
        );
        expect(applied).toEqual([
          { index: 0, targetId: here, waiting: true },
          { index: 1, targetId: elsewhere, waiting: false },
          { index: 2, targetId: noStep, waiting: false },
          { index: 3, targetId: pending, waiting: false },
          { index: 4, targetId: here, waiting: true },
        ]);
        expect(await find(here)).toMatchObject({
          status: 'Waiting',
          currentStep: 'labs',
          inputData: { a: 1, b: 1 },
        });
      });

      it('writes nothing when the unit of work fails', async () => {
        const id = nextId();
        await f.seed(f.scope, [{ id, inputData: { a: 0 } }]);
        await expect(
          f.uow.run(async (tx) => {
            await f.repository.mergeStepData(tx, f.scope, received(), [
              { index: 0, targetId: id, data: { a: 1 } },
            ]);
            throw new Error('later failure');
          }),
        ).rejects.toThrow('later failure');
        expect((await find(id))!.inputData).toEqual({ a: 0 });
        expect(await f.repository.history(f.scope.organizationId, id)).toEqual([]);
      });
    });

    it('one id in two organizations: step data and EHR events reach the scope’s target only', async () => {
      const x = nextId();
      await f.seed(f.scope, [{ id: x, inputData: { who: 'a' } }]);
      await f.seed(f.otherOrganization, [{ id: x, inputData: { who: 'b' } }]);
      const applied = await f.uow.run((tx) =>
        f.repository.mergeStepData(tx, f.scope, received(), [
          { index: 0, targetId: x, data: { k: 1 } },
        ]),
      );
      expect(applied).toEqual([{ index: 0, targetId: x, waiting: false }]);
      const recorded = await f.uow.run((tx) =>
        f.repository.recordEhrEvent(
          tx,
          f.otherOrganization,
          received('ehr', 'ehr_event', 'appointment_created'),
          { targetId: x },
          { e: 2 },
        ),
      );
      expect(recorded).toEqual({ eventId: expect.any(String), targetId: x });
      const mine = await f.findTarget(x, f.scope.organizationId);
      const theirs = await f.findTarget(x, f.otherOrganization.organizationId);
      expect([mine!.inputData, mine!.preCallEhrIds ?? null]).toEqual([{ who: 'a', k: 1 }, null]);
      expect([theirs!.inputData, theirs!.preCallEhrIds]).toEqual([
        { who: 'b', e: 2 },
        { appointment_created: [recorded!.eventId] },
      ]);
      expect(await f.repository.history(f.scope.organizationId, x)).toMatchObject([
        { organizationId: f.scope.organizationId, data: { k: 1 } },
      ]);
      expect(await f.repository.history(f.otherOrganization.organizationId, x)).toMatchObject([
        { organizationId: f.otherOrganization.organizationId, data: { e: 2 } },
      ]);
    });

    describe('recordEhrEvent', () => {
      it('stores the event, merges its data and lists its id under its type', async () => {
        const id = nextId();
        await f.seed(f.scope, [{ id, externalId: `mrn-${id}`, inputData: { a: 1 } }]);
        const first = await f.uow.run((tx) =>
          f.repository.recordEhrEvent(
            tx,
            f.scope,
            received('ehr', 'ehr_event', 'appointment_created'),
            {
              externalId: `mrn-${id}`,
            },
            { b: 2 },
          ),
        );
        const second = await f.uow.run((tx) =>
          f.repository.recordEhrEvent(
            tx,
            f.scope,
            received('ehr', 'ehr_event', null),
            { targetId: id },
            { a: 3 },
          ),
        );
        expect(first).toEqual({ eventId: expect.any(String), targetId: id });
        const target = (await find(id))!;
        expect(target.inputData).toEqual({ a: 3, b: 2 });
        expect(target.preCallEhrIds).toEqual({
          appointment_created: [first!.eventId],
          unknown: [second!.eventId],
        });
        const history = await f.repository.history(f.scope.organizationId, id);
        expect(history.map((h) => [h.id, h.kind, h.friendlyId, h.eventType, h.data])).toEqual([
          [first!.eventId, 'ehr_event', 'ehr', 'appointment_created', { b: 2 }],
          [second!.eventId, 'ehr_event', 'ehr', null, { a: 3 }],
        ]);
      });

      it('returns null and stores nothing for a target outside the scope or not matching both ids', async () => {
        const id = nextId();
        await f.seed(f.scope, [{ id, externalId: `mrn-${id}` }]);
        const attempts = [
          { scope: f.otherCampaign, ref: { targetId: id } },
          { scope: f.otherOrganization, ref: { externalId: `mrn-${id}` } },
          { scope: f.scope, ref: { targetId: id, externalId: 'other' } },
          { scope: f.scope, ref: { targetId: nextId() } },
          { scope: f.scope, ref: {} },
        ];
        for (const { scope, ref } of attempts) {
          const result = await f.uow.run((tx) =>
            f.repository.recordEhrEvent(tx, scope, received('ehr', 'ehr_event'), ref, { x: 1 }),
          );
          expect(result).toBeNull();
        }
        expect(await f.repository.history(f.scope.organizationId, id)).toEqual([]);
        expect((await find(id))!.preCallEhrIds).toBeNull();
      });
    });
  });
}
