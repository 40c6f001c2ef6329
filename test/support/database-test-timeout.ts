// Contract and e2e tests boot the app on a database of its own (PGlite in a child process, or a new
// PostgreSQL database, migrated once per run: test-database.ts) in their hooks, and some start child
// processes: that takes seconds, not milliseconds.
// Unit tests keep Jest's 5 s default.
import { jest } from '@jest/globals';

jest.setTimeout(120_000);
