import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { PlacementRate } from '../../src/modules/calling/application/ports/placement-rate.js';
import { SimulatedCallStore } from '../../src/modules/calling/application/ports/simulated-call.store.js';
import {
  InMemoryPlacementRate,
  InMemorySimulatedCallStore,
  InMemoryUnitOfWork,
} from '../../src/testing/index.js';
import { createTestApp } from '../support/test-app.js';
import { callingStoresContract } from './calling-stores.contract.js';

callingStoresContract('in memory', async () => ({
  simulated: new InMemorySimulatedCallStore(),
  rate: new InMemoryPlacementRate(),
  uow: new InMemoryUnitOfWork(),
  async close() {},
}));

callingStoresContract('SQL', async () => {
  // ROLE=api: no worker delivers the simulated calls this suite records.
  const t = await createTestApp({ env: { ROLE: 'api' } });
  return {
    simulated: t.app.get(SimulatedCallStore),
    rate: t.app.get(PlacementRate),
    uow: t.app.get(UnitOfWork),
    close: () => t.close(),
  };
});
