import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildPath, endpoints } from "@keyhold/contract";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { compareWithCpu } from "../lib/compare-cpu.ts";
import { ensureWrk } from "../lib/wrk.ts";
import { call } from "./secrets-list.ts";

/** Updates spread over this many secrets, so that the figure is the write path, not one row's lock. */
const SECRETS = 16;
export const CONNECTIONS = 8;

/**
 * A project with SECRETS secrets named `<prefix>_<n>` on `service`, and a wrk script that updates
 * them in turn (the audit cases: the write path with its event, and with a stream behind it).
 */
export async function prepareSecretUpdates(
  service: RunningService,
  scratchDir: string,
  label: string,
  prefix = "AUDITED",
): Promise<string> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, { projectName: label, slug: label }),
  );
  const where = { workspaceId: created.project.id, environment: "dev", secretPath: "/" };
  const paths: string[] = [];
  for (let n = 0; n < SECRETS; n++) {
    const url = buildPath(endpoints["secrets.update"].path, { secretName: `${prefix}_${n}` });
    await call(service, "POST", url, { ...where, secretValue: "first" });
    paths.push(url);
  }
  const body = JSON.stringify({ ...where, secretValue: "a new value of about the usual length" });
  const script = path.join(scratchDir, `${label}.lua`);
  writeFileSync(
    script,
    [
      `local paths = { ${paths.map((p) => JSON.stringify(p)).join(", ")} }`,
      `local body = ${JSON.stringify(body)}`,
      `local n = 0`,
      `wrk.headers["Content-Type"] = "application/json"`,
      `request = function()`,
      `  n = n + 1`,
      `  return wrk.format("PATCH", paths[(n % #paths) + 1], nil, body)`,
      `end`,
      "",
    ].join("\n"),
  );
  return script;
}

/**
 * PATCH /api/v3/secrets/raw/{name} (one secret's new value, with its version and folder commit),
 * by the service as it runs, which records each update's audit event in the same transaction,
 * against the same service built without audit recording. Besides throughput and latency, the
 * CPU time each update cost the service (and its PostgreSQL): on a shared machine that figure
 * moves far less than the others.
 */
function auditWrite(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Secret update on ${database}: with its audit event against without audit recording`,
    async run(context: BenchContext) {
      ensureWrk();
      const postgres = database === "PostgreSQL";
      const audited = await startService(context, { postgres });
      const unaudited = await startService(context, { postgres, entry: "bench/src/servers/unaudited-service.ts" });
      const contender = async (service: RunningService, name: string) => ({
        name,
        postgresUrl: service.databaseUrl,
        options: {
          url: service.url,
          headers: { authorization: `Bearer ${service.adminToken}` },
          script: await prepareSecretUpdates(service, context.scratchDir, `${name}-${id}`.replace(/[^a-z0-9-]/gi, "-")),
          connections: CONNECTIONS,
        },
      });
      return compareWithCpu(
        `secret update (${database})`,
        await contender(audited, "with audit"),
        await contender(unaudited, "without audit"),
      );
    },
  };
}

export const auditWriteCases: BenchCase[] = [
  auditWrite("audit-write", "SQLite"),
  auditWrite("audit-write-pg", "PostgreSQL"),
];
