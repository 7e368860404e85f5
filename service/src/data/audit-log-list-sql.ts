import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import { type AuditEventFilter, auditEventListQuery } from "./audit-log-list.ts";

/**
 * The SQL and parameters the list endpoints run for a filter, compiled without a database, so
 * that a benchmark can have the database explain exactly that statement.
 */
export function compileAuditEventList(dialect: Dialect, filter: AuditEventFilter): CompiledQuery | null {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => (dialect === "postgres" ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) =>
        dialect === "postgres" ? new PostgresIntrospector(kysely) : new SqliteIntrospector(kysely),
      createQueryCompiler: () => (dialect === "postgres" ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
  return auditEventListQuery(db, dialect, filter)?.compile() ?? null;
}

export type { AuditEventFilter } from "./audit-log-list.ts";
