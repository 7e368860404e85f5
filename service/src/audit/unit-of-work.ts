import { AsyncLocalStorage } from "node:async_hooks";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * A unit of work: everything one request writes commits in one real transaction, together with
 * the audit event that records it, or not at all.
 *
 * The Kysely driver of either dialect is wrapped (`withUnitOfWork`). Inside a unit (entered with
 * `run`), reads go to the pool as they always did until the unit writes; the first write
 * statement or the first `db.transaction()` begins a real transaction on a connection the unit
 * then keeps (pins), and every later statement of the unit runs on it:
 * - `db.transaction()` becomes a SAVEPOINT (commit = RELEASE, rollback = ROLLBACK TO), except
 *   the one that began the real transaction, which needs none (rolling it back restarts the
 *   empty real transaction);
 * - on PostgreSQL a bare write runs in a savepoint of its own, so that a failed statement (a
 *   unique violation a service turns into a 400) does not abort the request's transaction
 *   (SQLite undoes only the failed statement by itself);
 * - `finish` runs the caller's last statements (the audit event) on the pinned connection, then
 *   commits; after it, statements of work the request started but did not await go to the pool.
 * Transactions of one unit run one at a time (savepoints nest strictly); a transaction must not
 * start another through `db` inside its callback (on SQLite that never worked: one connection).
 */

type Kind = "sqlite" | "postgres";

const units = new AsyncLocalStorage<UnitOfWork>();

/**
 * Units begun and not yet finished. When none is, the storage is switched off: on Node 20 an
 * AsyncLocalStorage in use costs every promise of the process a hook, and requests that write
 * nothing (reads without an event) run outside any unit. `run` switches it on again.
 */
let openUnits = 0;

/** A FIFO lock over async work. */
class Lock {
  #tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    return release;
  }
}

/** What Kysely sees of a unit's connection: one per checkout, so each knows its own transaction. */
class UnitConnection implements DatabaseConnection {
  /** The transaction this checkout opened: the real one (root) or a savepoint. */
  transaction: { savepoint: string | undefined; wroteBesideIt: boolean } | undefined;
  /** Releases the unit's lock; set while this checkout holds it (a transaction). */
  unlock: (() => void) | undefined;

  constructor(
    readonly unit: UnitOfWork,
    readonly driver: UnitOfWorkDriver,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.transaction ? this.unit.onPinned(this.driver, query) : this.unit.bare(this.driver, query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    // Streams are reads: on the pinned connection once there is one, else on the pool.
    yield* this.unit.stream<R>(this.driver, query, chunkSize);
  }
}

/** Whether a statement only reads (no locks, no writes), so it may run on the pool before the unit writes. */
function isPlainRead(query: CompiledQuery): boolean {
  const node = query.query as {
    kind: string;
    with?: unknown;
    endModifiers?: readonly { modifier?: string; rawModifier?: unknown }[];
  };
  if (node.kind === "SelectQueryNode") {
    return !node.with && !(node.endModifiers ?? []).some((m) => m.rawModifier || m.modifier !== "Distinct");
  }
  return (
    node.kind === "RawNode" &&
    /^\s*select\b/i.test(query.sql) &&
    !/\bfor\s+(update|share|no\s+key|key)\b/i.test(query.sql)
  );
}

const raw = (text: string) => CompiledQuery.raw(text);

export class UnitOfWork {
  #state: "open" | "finishing" | "ended" = "open";
  /** The driver whose connection this unit pinned (another app's database never joins it). */
  #driver: UnitOfWorkDriver | undefined;
  /** The pinned connection, from the moment pinning starts. */
  #pinned: Promise<DatabaseConnection> | undefined;
  #lock = new Lock();
  /** The checkout whose transaction holds the lock, if any. */
  #inTransaction: UnitConnection | undefined;
  #savepoints = 0;
  /** Set when work of the unit was undone behind its back: the unit must then not commit. */
  #lost: Error | undefined;

  constructor() {
    openUnits++;
  }

  /** Runs `work` inside the unit: its statements join the unit's transaction. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return units.run(this, work);
  }

  /** Whether this unit's statements, from this driver, run on a connection it pinned (or pins now: its last work). */
  holdsConnection(driver: UnitOfWorkDriver): boolean {
    if (this.#state === "ended" || this.#driver !== driver) return false;
    return this.#pinned !== undefined || this.#state === "finishing";
  }

  /** Whether statements on `driver` belong to this unit (it is open, and bound to no other driver). */
  joins(driver: UnitOfWorkDriver): boolean {
    if (this.#state === "ended") return false;
    this.#driver ??= driver;
    return this.#driver === driver;
  }

  /**
   * Runs `last` (the audit event's statements, through `db` as usual: they all go to the pinned
   * connection, which is pinned now if nothing was written yet), then commits. Waits for a
   * transaction still open in the unit. On any failure the whole unit rolls back and the error
   * is thrown: nothing commits without what `last` writes.
   */
  async finish(last?: () => Promise<void>): Promise<void> {
    const unlock = await this.#lock.acquire();
    this.#state = "finishing";
    try {
      await (last ? this.run(last) : undefined);
      if (this.#lost) throw this.#lost;
      if (this.#pinned) await (await this.#pinned).executeQuery(raw("commit"));
    } catch (error) {
      if (this.#pinned) {
        const connection = await this.#pinned.catch(() => undefined);
        // The connection may be gone, which rolls back too; the first error is the one to report.
        await connection?.executeQuery(raw("rollback")).catch(() => undefined);
      }
      throw error;
    } finally {
      this.#state = "ended";
      if (--openUnits === 0) units.disable();
      const pinned = this.#pinned;
      this.#pinned = undefined;
      unlock();
      const connection = await pinned?.catch(() => undefined);
      if (connection && this.#driver) await this.#driver.inner.releaseConnection(connection);
    }
  }

  /** Takes a connection from the pool and begins the real transaction on it. */
  #pin(driver: UnitOfWorkDriver, settings: TransactionSettings = {}): Promise<DatabaseConnection> {
    this.#pinned = (async () => {
      const connection = await driver.inner.acquireConnection();
      try {
        await driver.inner.beginTransaction(connection, settings);
      } catch (error) {
        await driver.inner.releaseConnection(connection);
        throw error;
      }
      return connection;
    })();
    // A failed pin leaves the unit unpinned, so a retry may pin again.
    this.#pinned.catch(() => {
      this.#pinned = undefined;
    });
    return this.#pinned;
  }

  /** Undoes the whole real transaction (it held only the failed work) and begins it afresh. */
  async #restart(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw("rollback"));
    await connection.executeQuery(raw("begin"));
  }

  async #inSavepoint<R>(connection: DatabaseConnection, work: (name: string) => Promise<R>): Promise<R> {
    const name = `uow_${++this.#savepoints}`;
    await connection.executeQuery(raw(`savepoint ${name}`));
    try {
      const result = await work(name);
      await connection.executeQuery(raw(`release savepoint ${name}`));
      return result;
    } catch (error) {
      await connection.executeQuery(raw(`rollback to savepoint ${name}`));
      await connection.executeQuery(raw(`release savepoint ${name}`));
      throw error;
    }
  }

  /** A statement of a transaction the unit is in, or of the unit's last work: on the pinned connection. */
  async onPinned<R>(driver: UnitOfWorkDriver, query: CompiledQuery): Promise<QueryResult<R>> {
    const connection = await (this.#pinned ?? this.#pin(driver));
    return connection.executeQuery<R>(query);
  }

  /** A statement outside any transaction of the unit. */
  async bare<R>(driver: UnitOfWorkDriver, query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#state === "finishing") return this.onPinned(driver, query);
    if (isPlainRead(query)) {
      if (this.#pinned) return (await this.#pinned).executeQuery<R>(query);
      return driver.onPool((connection) => connection.executeQuery<R>(query));
    }
    const open = this.#inTransaction;
    if (open?.transaction) {
      // Inside the unit's open transaction (work beside it, or its callback using `db`): the
      // statement joins it, and is lost if that transaction rolls back.
      open.transaction.wroteBesideIt = true;
      return (await (this.#pinned as Promise<DatabaseConnection>)).executeQuery<R>(query);
    }
    const unlock = await this.#lock.acquire();
    try {
      if (!this.#pinned) {
        const connection = await this.#pin(driver);
        try {
          return await connection.executeQuery<R>(query);
        } catch (error) {
          // The first write failed: nothing else is in the transaction (PostgreSQL has aborted it).
          if (driver.kind === "postgres") await this.#restart(connection);
          throw error;
        }
      }
      const connection = await this.#pinned;
      if (driver.kind === "sqlite") return await connection.executeQuery<R>(query);
      return await this.#inSavepoint(connection, () => connection.executeQuery<R>(query));
    } finally {
      unlock();
    }
  }

  async *stream<R>(driver: UnitOfWorkDriver, query: CompiledQuery, chunkSize?: number) {
    if (this.#pinned) {
      yield* (await this.#pinned).streamQuery<R>(query, chunkSize);
      return;
    }
    const connection = await driver.inner.acquireConnection();
    try {
      yield* connection.streamQuery<R>(query, chunkSize);
    } finally {
      await driver.inner.releaseConnection(connection);
    }
  }

  /** `db.transaction()` in the unit: the real transaction if the unit has none yet, else a savepoint. */
  async begin(driver: UnitOfWorkDriver, handle: UnitConnection, settings: TransactionSettings): Promise<void> {
    // Released with the checkout (releaseConnection), whether or not the begin succeeds.
    handle.unlock = await this.#lock.acquire();
    if (this.#state === "finishing") throw new Error("A transaction began while the unit of work was committing");
    if (!this.#pinned) {
      await this.#pin(driver, settings);
      handle.transaction = { savepoint: undefined, wroteBesideIt: false };
    } else {
      const name = `uow_${++this.#savepoints}`;
      await (await this.#pinned).executeQuery(raw(`savepoint ${name}`));
      handle.transaction = { savepoint: name, wroteBesideIt: false };
    }
    this.#inTransaction = handle;
  }

  async commit(handle: UnitConnection): Promise<void> {
    const transaction = handle.transaction;
    if (!transaction) throw new Error("No transaction to commit");
    // The real transaction commits with the unit (finish); a savepoint is released now.
    if (transaction.savepoint) {
      await (await (this.#pinned as Promise<DatabaseConnection>)).executeQuery(
        raw(`release savepoint ${transaction.savepoint}`),
      );
    }
    handle.transaction = undefined;
  }

  async rollback(handle: UnitConnection): Promise<void> {
    const transaction = handle.transaction;
    if (!transaction) throw new Error("No transaction to roll back");
    handle.transaction = undefined;
    if (transaction.wroteBesideIt) {
      this.#lost = new Error("A rolled-back transaction took other writes of the request with it");
    }
    try {
      const connection = await (this.#pinned as Promise<DatabaseConnection>);
      if (transaction.savepoint) {
        await connection.executeQuery(raw(`rollback to savepoint ${transaction.savepoint}`));
        await connection.executeQuery(raw(`release savepoint ${transaction.savepoint}`));
      } else {
        await this.#restart(connection);
      }
    } catch (error) {
      this.#lost ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  release(handle: UnitConnection): void {
    if (this.#inTransaction === handle) this.#inTransaction = undefined;
    const unlock = handle.unlock;
    handle.unlock = undefined;
    unlock?.();
  }
}

/** The unit the current async context runs in, if it is open. */
export function currentUnit(): UnitOfWork | undefined {
  return units.getStore();
}

export class UnitOfWorkDriver implements Driver {
  constructor(
    readonly inner: Driver,
    readonly kind: Kind,
  ) {}

  #unit(): UnitOfWork | undefined {
    const unit = units.getStore();
    return unit?.joins(this) ? unit : undefined;
  }

  /** Whether the current async context's statements run on a connection a unit pinned. */
  holdsConnection(): boolean {
    return units.getStore()?.holdsConnection(this) ?? false;
  }

  async onPool<T>(work: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    const connection = await this.inner.acquireConnection();
    try {
      return await work(connection);
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const unit = this.#unit();
    return unit ? new UnitConnection(unit, this) : this.inner.acquireConnection();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof UnitConnection) return connection.unit.begin(this, connection, settings);
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof UnitConnection) return connection.unit.commit(connection);
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof UnitConnection) return connection.unit.rollback(connection);
    return this.inner.rollbackTransaction(connection);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof UnitConnection) connection.unit.release(connection);
    else await this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * The dialect with its driver wrapped, and a probe for the prepared reads that bypass Kysely:
 * they must go through it (to the pinned connection) while a unit holds one.
 */
export function withUnitOfWork(dialect: Dialect, kind: Kind): { dialect: Dialect; holdsConnection: () => boolean } {
  let driver: UnitOfWorkDriver | undefined;
  return {
    dialect: {
      createDriver: () => {
        driver = new UnitOfWorkDriver(dialect.createDriver(), kind);
        return driver;
      },
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
    holdsConnection: () => driver?.holdsConnection() ?? false,
  };
}
