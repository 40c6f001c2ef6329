import { SessionStore } from '../../src/modules/organization/application/ports/session.store.js';
import { UserRepository } from '../../src/modules/organization/application/ports/user.repository.js';
import {
  InMemoryPeople,
  InMemorySessionStore,
  InMemoryUserRepository,
} from '../../src/testing/in-memory-people.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { peopleContract } from './people.contract.js';

describe('people and sessions in memory', () => {
  let people = new InMemoryPeople();
  let n = 0;
  beforeEach(() => {
    people = new InMemoryPeople();
  });
  peopleContract({
    users: () => new InMemoryUserRepository(people),
    sessions: () => new InMemorySessionStore(people),
    organizationId: async () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
});

describe('people and sessions on a real database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  peopleContract({
    users: () => t.app.get(UserRepository),
    sessions: () => t.app.get(SessionStore),
    organizationId: async () => (await t.createOrganization()).organizationId,
  });
});
