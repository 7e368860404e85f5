import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely, Transaction } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";

/**
 * What PostgreSQL answers when concurrent transactions got in each other's way, and running the
 * work again would read what the other one committed: a serialization failure, a deadlock, a
 * unique key another transaction inserted after this one looked for it.
 */
const RETRYABLE = new Set(["40001", "40P01", "23505"]);
const ATTEMPTS = 8;

/**
 * Runs `work` in one transaction; on PostgreSQL, runs it again (from the start, reading afresh)
 * when it lost a race with another transaction. The last failure is thrown as it was. SQLite runs
 * one write transaction at a time, so there it runs once.
 */
export async function retryingTransaction<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (dialect !== "postgres" || attempt >= ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) {
        throw error;
      }
      await sleep(Math.random() * 10 * attempt);
    }
  }
}
