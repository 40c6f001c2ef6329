import 'reflect-metadata';
import { startService } from './bootstrap';

async function main(): Promise<void> {
  const service = await startService();
  // Graceful shutdown: stop taking requests, let running jobs finish, then stop the embedded database.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void service.close().finally(() => process.exit(0));
    });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
