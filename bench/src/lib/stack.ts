import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildPath, CSRF_HEADER, CSRF_VALUE, endpoints } from "@keyhold/contract";
import { deriveTokenSigningKey } from "@keyhold/service/tokens";
import pg from "pg";
import type { BenchContext } from "./bench-case.ts";
import { freePort, startNode, startProgram, waitForUrl } from "./processes.ts";

export interface RunningService {
  url: string;
  adminToken: string;
  identityId: string;
  /** GET /api/v1/identities/{identityId}: the read every case measures. */
  readPath: string;
  rootKeyHex: string;
  sqliteFile: string | undefined;
  databaseUrl: string | undefined;
}

/** A fresh, empty database on the throwaway PostgreSQL, so runs never see each other's rows. */
export async function freshPostgresDatabase(adminUrl: string): Promise<string> {
  const name = `keyhold_bench_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function identityIdOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
    identityId: string;
  };
  return payload.identityId;
}

/**
 * Starts the real service on a new data dir (and a new PostgreSQL database when asked), from its
 * server entry or from another entry that builds it differently (`entry`).
 */
export async function startService(
  context: BenchContext,
  options: { postgres: boolean; entry?: string },
): Promise<RunningService> {
  const port = await freePort();
  const dataDir = path.join(context.scratchDir, `service-${port}`);
  const rootKeyHex = randomBytes(32).toString("hex");
  let databaseUrl: string | undefined;
  if (options.postgres) {
    if (!context.postgresUrl) throw new Error("no PostgreSQL for this run (KEYHOLD_BENCH_DATABASE_URL)");
    databaseUrl = await freshPostgresDatabase(context.postgresUrl);
  }
  const service = context.processes.add(
    startNode(options.entry ?? "service", options.entry ?? "service/src/server.ts", {
      PORT: String(port),
      HOST: "127.0.0.1",
      KEYHOLD_DATA_DIR: dataDir,
      KEYHOLD_ROOT_KEY: rootKeyHex,
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/api/status`, service);
  const adminToken = readFileSync(path.join(dataDir, "admin-token"), "utf8").trim();
  const identityId = identityIdOf(adminToken);
  return {
    url,
    adminToken,
    identityId,
    readPath: buildPath(endpoints["identities.get"].path, { identityId }),
    rootKeyHex,
    sqliteFile: databaseUrl ? undefined : path.join(dataDir, "keyhold.db"),
    databaseUrl,
  };
}

/**
 * Starts the bare floor over the service's own database: it verifies the service's tokens and
 * answers the body the service gave for the same read, captured here once.
 */
export async function startBareFloor(context: BenchContext, service: RunningService): Promise<string> {
  const response = await fetch(`${service.url}${service.readPath}`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  if (!response.ok) throw new Error(`the service answered ${response.status} to the measured read`);
  const bodyFile = path.join(context.scratchDir, `body-${service.identityId}.json`);
  writeFileSync(bodyFile, await response.text());
  const port = await freePort();
  const signingKey = Buffer.from(deriveTokenSigningKey(Buffer.from(service.rootKeyHex, "hex")));
  const floor = context.processes.add(
    startProgram(
      "bare floor",
      process.execPath,
      ["--conditions=@keyhold/source", "--import", "tsx", "bench/src/floors/bare-read.ts"],
      {
        env: {
          PORT: String(port),
          SIGNING_KEY_HEX: signingKey.toString("hex"),
          BODY_FILE: bodyFile,
          ...(service.sqliteFile && { SQLITE_FILE: service.sqliteFile }),
          ...(service.databaseUrl && { DATABASE_URL: service.databaseUrl }),
        },
      },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/healthz`, floor);
  return url;
}

export const csrfHeaders = { [CSRF_HEADER]: CSRF_VALUE };
