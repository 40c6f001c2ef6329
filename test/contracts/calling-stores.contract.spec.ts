import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallEventStore } from '../../src/modules/calling/application/ports/call-event.store.js';
import { PlacementRate } from '../../src/modules/calling/application/ports/placement-rate.js';
import { SimulatedCallStore } from '../../src/modules/calling/application/ports/simulated-call.store.js';
import {
  InMemoryCallEventStore,
  InMemoryPlacementRate,
  InMemorySimulatedCallStore,
  InMemoryUnitOfWork,
} from '../../src/testing/index.js';
import { createTestApp } from '../support/test-app.js';
import { callingStoresContract } from './calling-stores.contract.js';

callingStoresContract('in memory', async () => {
  const events = new InMemoryCallEventStore();
  return {
    simulated: new InMemorySimulatedCallStore(),
    rate: new InMemoryPlacementRate(),
    events,
    uow: new InMemoryUnitOfWork(events),
    async close() {},
  };
});

callingStoresContract('SQL', async () => {
  // ROLE=api: no worker delivers the simulated calls this suite records.
  const t = await createTestApp({ env: { ROLE: 'api' } });
  return {
    simulated: t.app.get(SimulatedCallStore),
    rate: t.app.get(PlacementRate),
    events: t.app.get(CallEventStore),
    uow: t.app.get(UnitOfWork),
    close: () => t.close(),
  };
});
