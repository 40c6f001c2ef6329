// Contract and e2e tests boot the app on a fresh database (PGlite in a child process, or a new
// PostgreSQL database) and run migrations in their hooks: that takes seconds, not milliseconds.
// Unit tests keep Jest's 5 s default.
import { jest } from '@jest/globals';

jest.setTimeout(120_000);
