// An in-memory PGlite served on a loopback port, in a process of its own: Jest's module sandbox cannot
// load PGlite (it imports its WASM bundle dynamically), and a separate process lets worker child
// processes share the database too. Prints {"url": ...} once listening; exits when its parent does.
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');

(async () => {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  process.stdout.write(
    JSON.stringify({ url: `postgres://postgres@${host}:${port}/postgres` }) + '\n',
  );
  const stop = async () => {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
