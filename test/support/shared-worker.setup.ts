// Run by Vitest around every file of the projects whose files share their worker process
// (`isolate: false` in vitest.config.ts): what one file leaves in the process must not reach the next.
// - process.env: put back as it was before the file, so a setting one file made never reaches a
//   later file's apps or child processes.
// - `fetch`'s connection pool: a file's requests to a server on a loopback port leave keep-alive
//   connections in it, and a later file's server may listen on the same port (freePort draws from a
//   stripe per worker). Each file starts with a pool of its own, and the last one's connections are
//   closed. The pool is undici's (a dependency of the service, which makes it the one `fetch` uses
//   when loaded), as in the service.
// - Vitest's fake timers, which a file that failed mid-test may have left on.
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

let env: NodeJS.ProcessEnv;

beforeAll(() => {
  env = { ...process.env };
});

afterAll(async () => {
  vi.useRealTimers();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);

  const pool = getGlobalDispatcher();
  setGlobalDispatcher(new Agent());
  await pool.destroy().catch(() => undefined);
});
