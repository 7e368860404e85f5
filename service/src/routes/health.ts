import type { FastifyInstance } from "fastify";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";

/** The most a readiness check waits for the database, so a hung connection reads as "not ready", not as a hung probe. */
const CHECK_TIMEOUT_MS = 2_000;

/** Resolves to what `work` resolved to, or rejects when it takes longer than `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A short reason for the probe's answer: a driver error code (ECONNREFUSED, 57P03) or message, never a URL. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : "failed";
}

/**
 * GET /healthz: the process is up and serving (liveness). GET /readyz: the database answers
 * and every migration this build knows has run (readiness); otherwise 503 naming what fails.
 * Each probe asks again, with a bounded wait: nothing is cached, so a recovered database reads
 * as ready on the next probe. Neither needs a token; neither is an Infisical path.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    /** The names of the migrations this build knows that the database has not run. */
    pendingMigrations: () => Promise<string[]>;
    timeoutMs?: number;
  },
): void {
  const timeoutMs = deps.timeoutMs ?? CHECK_TIMEOUT_MS;

  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    let database: string = "ok";
    let migrations: string = "not checked";
    try {
      await within(timeoutMs, sql`select 1`.execute(deps.db));
    } catch (error) {
      database = reasonOf(error);
    }
    if (database === "ok") {
      try {
        const pending = await within(timeoutMs, deps.pendingMigrations());
        migrations = pending.length === 0 ? "ok" : `pending: ${pending.join(", ")}`;
      } catch (error) {
        migrations = reasonOf(error);
      }
    }
    const failing = database !== "ok" ? ["database"] : migrations !== "ok" ? ["migrations"] : [];
    if (failing.length === 0) return { status: "ready", checks: { database, migrations } };
    return reply.code(503).send({ status: "unavailable", failing, checks: { database, migrations } });
  });
}
