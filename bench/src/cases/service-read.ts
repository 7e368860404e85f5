import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { startBareFloor, startService } from "../lib/stack.ts";
import { compare, ensureWrk } from "../lib/wrk.ts";

/** GET /api/v1/identities/{id} with the admin token, straight to the service, against the bare floor. */
function serviceRead(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Authenticated read on ${database}: the service against a bare Fastify handler`,
    async run(context: BenchContext) {
      ensureWrk();
      const service = await startService(context, { postgres: database === "PostgreSQL" });
      const floorUrl = await startBareFloor(context, service);
      const headers = { authorization: `Bearer ${service.adminToken}` };
      return compare(
        `authenticated read (${database})`,
        { name: "service", options: { url: `${service.url}${service.readPath}`, headers } },
        { name: "bare Fastify", options: { url: `${floorUrl}${service.readPath}`, headers } },
      );
    },
  };
}

export const serviceReadCases: BenchCase[] = [
  serviceRead("service-read", "SQLite"),
  serviceRead("service-read-pg", "PostgreSQL"),
];
