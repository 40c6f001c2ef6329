/**
 * The service's entry point: `node dist/main.js` (ROLE picks api, worker or both).
 *
 * V8's compile cache (Node 22.1+) is switched on first, so a restart reuses the compiled code of the
 * service and its libraries instead of parsing them again. It must come before they are loaded, and an
 * ES module's static imports are all loaded before its body runs: so the service is imported here,
 * dynamically, after the cache is on.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./service-main.js');
