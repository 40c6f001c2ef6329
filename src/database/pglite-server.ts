import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';
import { createServer, Server, Socket } from 'net';

type OnData = (data: Uint8Array) => void;

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: OnData;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
}

/** Frontend messages after which a connection's exchange with the server is complete. */
const SYNC = 0x53; // 'S'
const SIMPLE_QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

function endsExchange(message: Uint8Array): boolean {
  const type = message[0];
  // A startup packet has no type byte: it begins with its length, whose first byte is 0.
  return type === SYNC || type === SIMPLE_QUERY || type === TERMINATE || type === 0;
}

/**
 * Serialises the protocol messages of many client connections onto PGlite's single session.
 *
 * pglite-socket's own queue only keeps a connection's messages together inside an explicit
 * transaction. The extended protocol (Parse, Bind, Describe, Execute, then Sync) also has state
 * between messages: the unnamed statement and portal, and after an error the server skips messages
 * until Sync. Interleaving two connections there mixes their statements ("bind message supplies 3
 * parameters, but prepared statement requires 2", "portal does not exist") and can leave a client
 * waiting forever. So a connection owns the session from its first message until its exchange ends
 * (Sync or a simple query) and, beyond that, for as long as it has a transaction open.
 */
export class ProtocolAwareQueue {
  private queue: QueuedMessage[] = [];
  private owner: number | null = null;
  /** The owner has begun an extended-protocol exchange and not yet sent its Sync. */
  private midExchange = false;
  private processing = false;
  /** The connection whose message is executing right now. */
  private inFlight: number | null = null;
  /** Connections gone while one of their messages was executing: cleaned up once it finishes. */
  private readonly departed = new Set<number>();

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: OnData): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that went away mid-exchange or mid-transaction must not keep the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    // Its message still executing would make it the owner afterwards: `process` cleans up then.
    if (this.inFlight === handlerId) {
      this.departed.add(handlerId);
      return;
    }
    if (this.owner !== handlerId) return;
    await this.release();
    void this.process();
  }

  /** Ends the owner's half-sent exchange and open transaction, and frees the session. */
  private async release(): Promise<void> {
    // The departed connection stays the owner until this is done, so nothing else runs in between.
    // A half-sent extended-protocol exchange is ended by a Sync (after a clean Terminate there is none
    // to end, and PGlite must not get one); then any open transaction is rolled back. `exec` takes
    // PGlite's lock itself, so it must not run inside `runExclusive`.
    if (this.midExchange) {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(new Uint8Array([SYNC, 0, 0, 0, 4]), {
          onRawData: () => undefined,
        }),
      );
    }
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    this.midExchange = false;
  }

  private next(): QueuedMessage | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((q) => q.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        const current = item;
        let bytes = 0;
        this.inFlight = current.handlerId;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (err) {
          this.inFlight = null;
          this.departed.delete(current.handlerId);
          this.owner = null;
          this.midExchange = false;
          current.reject(err as Error);
          continue;
        }
        this.inFlight = null;
        this.midExchange = !endsExchange(current.message);
        const done = !this.midExchange && !this.db.isInTransaction();
        this.owner = done ? null : current.handlerId;
        current.resolve(bytes);
        if (this.departed.delete(current.handlerId) && this.owner === current.handlerId) {
          // Its connection closed while this message ran (a killed client): free the session now.
          await this.release();
        }
      }
    } finally {
      this.processing = false;
    }
  }
}

/** A TCP server on loopback speaking the PostgreSQL protocol to PGlite (one handler per connection). */
export class PgliteServer {
  private readonly server: Server;
  private readonly handlers = new Set<PGLiteSocketHandler>();
  private readonly queue: ProtocolAwareQueue;

  constructor(db: PGlite) {
    this.queue = new ProtocolAwareQueue(db);
    this.server = createServer((socket) => void this.accept(socket));
  }

  /** Listens on 127.0.0.1 and returns the port. */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () =>
        resolve((this.server.address() as { port: number }).port),
      );
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.handlers].map((h) => h.detach(true)));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async accept(socket: Socket): Promise<void> {
    // The handler's type names pglite-socket's own queue; ours has the same interface.
    const handler = new PGLiteSocketHandler({
      queryQueue: this.queue as never,
      closeOnDetach: true,
    });
    this.handlers.add(handler);
    handler.addEventListener('close', () => this.handlers.delete(handler));
    try {
      await handler.attach(socket);
    } catch {
      this.handlers.delete(handler);
      socket.destroy();
    }
  }
}
