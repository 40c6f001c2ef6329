// Run once by Vitest before the first file of a project that uses test databases (vitest.config.ts):
// the migrated template those files' databases are copied from is made here, once, so that files
// starting at once on parallel workers all find it ready instead of each building one.
import { prepareTestDatabases } from './test-database.js';

export default async function setup(): Promise<void> {
  await prepareTestDatabases();
}
