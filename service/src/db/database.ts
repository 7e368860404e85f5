import { createHash } from "node:crypto";
import fs from "node:fs";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, type PostgresDialectConfig, SqliteDialect, type SqliteDialectConfig } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { withUnitOfWork } from "../audit/unit-of-work.ts";
import { type Config, dataFiles } from "../config.ts";
import { ensureDataDir } from "../lib/files.ts";
import { migrateToLatest } from "./migrations.ts";
import { type DirectRun, readDirectly } from "./prepared.ts";
import type { Database } from "./schema.ts";

export type Dialect = "sqlite" | "postgres";

/** Connections of the database pool, for metrics. SQLite has one connection and no queue to read. */
export interface PoolStats {
  total: number;
  idle?: number;
  waiting?: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  poolStats: () => PoolStats;
}

function openSqlite(file: string): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(file);
  // Owner-only before WAL starts: SQLite gives the -wal and -shm files the database's mode.
  fs.chmodSync(file, 0o600);
  // WAL lets readers and one writer work side by side; FULL survives power loss, not only crashes.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/**
 * Kysely prepares every query anew; with better-sqlite3 that compile step costs more than an
 * indexed read. Statements are reusable, so keep them by their SQL text (the text holds only
 * placeholders, never values, so the set is bounded by the queries the code contains).
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig["database"] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        // Lists bound with IN (…) make one text per length; keep the cache from growing without end.
        if (statements.size >= 500) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Prepared reads run synchronously on the one connection (better-sqlite3 is synchronous), as
 * Kysely would run them once it holds the connection, but without waiting for it: that wait
 * only matters while a transaction is open on the connection (a read then would see its
 * uncommitted rows), so reads go through Kysely, and wait, exactly then.
 */
function sqliteReader(sqlite: SqliteDatabase.Database) {
  // A unit of work's transaction (service/src/audit/unit-of-work.ts) is a transaction like any
  // other here: its reads go through Kysely to the unit's connection, everybody else's wait.
  return (sql: string): DirectRun | undefined => {
    const statement = sqlite.prepare(sql);
    if (!statement.reader || !statement.readonly) return undefined;
    return (parameters) => (sqlite.inTransaction ? undefined : statement.all(parameters));
  };
}

/**
 * Statements on PostgreSQL are sent with a name, so each is parsed and planned once per
 * connection, then only bound and run. The name is derived from the SQL text (placeholders only,
 * never values). Lists bound with IN (…) make one text per length, so only statements with few
 * parameters are named; DDL and the like are sent as they are. When a migration by another
 * instance changes a table under a named statement, PostgreSQL refuses it ("cached plan must not
 * change result type"); that text is then sent unnamed from here on.
 */
function namedStatements() {
  const names = new Map<string, string>();
  const neverNamed = new Set<string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (!name) {
      name = `k${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
      if (names.size >= 1_000) names.clear();
      names.set(text, name);
    }
    return name;
  };
  /** Sends `text` on `client` (a pooled client, or the pool, which lends one for the query). */
  return (client: pg.Pool | pg.PoolClient, text: string, values: unknown[] | undefined): Promise<pg.QueryResult> => {
    if (
      values !== undefined &&
      values.length <= 16 &&
      !neverNamed.has(text) &&
      /^\s*(select|insert|update|delete|with)\b/i.test(text)
    ) {
      return client.query({ name: nameOf(text), text, values }).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== "0A000") throw error;
        neverNamed.add(text);
        return client.query(text, values);
      });
    }
    return client.query(text, values);
  };
}

type SendQuery = ReturnType<typeof namedStatements>;

function withNamedStatements(pool: pg.Pool, send: SendQuery): PostgresDialectConfig["pool"] {
  return {
    end: () => pool.end(),
    connect: async () => {
      const client = await pool.connect();
      return {
        release: () => client.release(),
        query: ((text: unknown, values?: unknown[]) =>
          typeof text === "string"
            ? send(client, text, values)
            : client.query(text as pg.QueryConfig, values)) as pg.PoolClient["query"],
      };
    },
  };
}

/**
 * Prepared reads on PostgreSQL are sent on the pool itself, which lends a connection for the one
 * query as Kysely would (transactions are other handles and never come here), without Kysely's
 * own checkout and release around it. Once a unit of work holds a connection, its reads go
 * through Kysely to that connection, so that they see what the unit wrote.
 */
function postgresReader(pool: pg.Pool, send: SendQuery, inUnit: () => boolean) {
  return (sql: string): DirectRun =>
    (parameters) =>
      inUnit() ? undefined : send(pool, sql, [...parameters]).then((result) => result.rows);
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle client losing its connection must not crash the process.
    pool.on("error", (error) => logger.error({ err: error }, "PostgreSQL pool error"));
    const send = namedStatements();
    const unit = withUnitOfWork(new PostgresDialect({ pool: withNamedStatements(pool, send) }), "postgres");
    const db = new Kysely<Database>({ dialect: unit.dialect });
    readDirectly(db, postgresReader(pool, send, unit.holdsConnection));
    handle = {
      db,
      dialect: "postgres",
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  } else {
    ensureDataDir(config.dataDir);
    const sqlite = openSqlite(dataFiles(config).sqlite);
    const unit = withUnitOfWork(new SqliteDialect({ database: withStatementCache(sqlite) }), "sqlite");
    const db = new Kysely<Database>({ dialect: unit.dialect });
    readDirectly(db, sqliteReader(sqlite));
    handle = { db, dialect: "sqlite", poolStats: () => ({ total: 1 }) };
  }
  try {
    await migrateToLatest(handle.db as Kysely<unknown>, handle.dialect);
  } catch (error) {
    await handle.db.destroy();
    throw error;
  }
  return handle;
}
