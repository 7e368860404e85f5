import pg from "pg";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { compareWithCpu } from "../lib/compare-cpu.ts";
import {
  bearer,
  deleteInfisicalProject,
  type InfisicalServer,
  identityReadPath,
  infisicalServers,
  seedInfisicalProject,
  shortLabel,
} from "../lib/infisical.ts";
import type { ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { ensureWrk } from "../lib/wrk.ts";
import { listPath, type SeedSecret, seedProject, seedSecrets } from "./secrets-list.ts";

const LIVE_SECRET_COUNT = 1_000;
/** As the secrets-list cases: each answer is large, a few connections measure the path. */
const listLoad = { connections: 4, durationSeconds: 5 };
/** A live server's throughput swings more between rounds than a floor's: a median of 5, not 3. */
const ROUNDS = 5;

async function dropDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^keyhold_bench_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop database ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * Runs `measure` once per server, each time with Keyhold's service on a fresh database of that
 * server's own PostgreSQL (so both sides share one database server), dropped afterwards.
 */
async function againstEachServer(
  context: BenchContext,
  measure: (server: InfisicalServer, keyhold: RunningService) => Promise<ResultRow[]>,
): Promise<ResultRow[]> {
  ensureWrk();
  const servers = infisicalServers();
  for (const server of servers) {
    const response = await fetch(`${server.url}/api/status`).catch((error: unknown) => {
      throw new Error(`${server.label} does not answer at ${server.url}`, { cause: error });
    });
    if (!response.ok) throw new Error(`${server.label} answered ${response.status} at ${server.url}/api/status`);
  }
  const rows: ResultRow[] = [];
  for (const server of servers) {
    console.error(`  against ${server.label} at ${server.url}`);
    const keyhold = await startService({ ...context, postgresUrl: server.postgresUrl }, { postgres: true });
    try {
      rows.push(...(await measure(server, keyhold)));
    } finally {
      await context.processes.stopAll();
      if (keyhold.databaseUrl) await dropDatabase(server.postgresUrl, keyhold.databaseUrl);
    }
  }
  return rows;
}

async function expectOk(url: string, headers: Record<string, string>, what: string): Promise<void> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${what} answered ${response.status} to GET ${url}: ${await response.text()}`);
  await response.arrayBuffer();
}

const readCase: BenchCase = {
  id: "infisical-read",
  title:
    "Authenticated read against live Infisical: GET /api/v1/identities/{id}, an org-admin identity reading its own record with its token",
  onlyWhenNamed: true,
  run: (context) =>
    againstEachServer(context, async (server, keyhold) => {
      const keyholdUrl = `${keyhold.url}${keyhold.readPath}`;
      const infisicalUrl = `${server.url}${identityReadPath(server.identityId)}`;
      await expectOk(keyholdUrl, bearer({ token: keyhold.adminToken }), "Keyhold");
      await expectOk(infisicalUrl, bearer(server), server.label);
      return compareWithCpu(
        `authenticated read vs ${server.label}`,
        {
          name: "Keyhold",
          options: { url: keyholdUrl, headers: bearer({ token: keyhold.adminToken }) },
          postgresUrl: server.postgresUrl,
        },
        {
          name: shortLabel(server),
          options: { url: infisicalUrl, headers: bearer(server) },
          postgresUrl: server.postgresUrl,
        },
        ROUNDS,
      );
    }),
};

/** Both answer with exactly the seeded secrets, values decrypted, before anything is measured. */
async function expectSeeded(
  url: string,
  headers: Record<string, string>,
  secrets: readonly SeedSecret[],
  what: string,
): Promise<void> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { secrets?: { secretKey?: unknown; secretValue?: unknown }[] };
  const seen = new Map(body.secrets?.map((s) => [s.secretKey, s.secretValue]));
  const wrong = secrets.filter((s) => seen.get(s.secretKey) !== s.secretValue).length;
  if (body.secrets?.length !== secrets.length || wrong > 0) {
    throw new Error(
      `${what} listed ${body.secrets?.length ?? 0} secrets, ${wrong} of the seeded ones missing or wrong`,
    );
  }
}

const listCase: BenchCase = {
  id: "infisical-list",
  title: `Listing ${LIVE_SECRET_COUNT.toLocaleString("en")} secrets of one folder (decrypted) against live Infisical`,
  onlyWhenNamed: true,
  run: (context) =>
    againstEachServer(context, async (server, keyhold) => {
      const secrets = seedSecrets(LIVE_SECRET_COUNT);
      console.error(`  seeding ${LIVE_SECRET_COUNT} secrets into Keyhold and ${server.label} through their APIs…`);
      const infisicalProject = await seedInfisicalProject(server, secrets);
      try {
        const keyholdProject = await seedProject(keyhold, secrets);
        const keyholdUrl = `${keyhold.url}${listPath(keyholdProject)}`;
        const infisicalUrl = `${server.url}${listPath(infisicalProject.projectId)}`;
        const keyholdHeaders = bearer({ token: keyhold.adminToken });
        await expectSeeded(keyholdUrl, keyholdHeaders, secrets, "Keyhold");
        await expectSeeded(infisicalUrl, bearer(server), secrets, server.label);
        return await compareWithCpu(
          `list ${LIVE_SECRET_COUNT.toLocaleString("en")} secrets vs ${server.label}`,
          {
            name: "Keyhold",
            options: { url: keyholdUrl, headers: keyholdHeaders, ...listLoad },
            postgresUrl: server.postgresUrl,
          },
          {
            name: shortLabel(server),
            options: { url: infisicalUrl, headers: bearer(server), ...listLoad },
            postgresUrl: server.postgresUrl,
          },
          ROUNDS,
        );
      } finally {
        await deleteInfisicalProject(server, infisicalProject.projectId);
      }
    }),
};

/** Keyhold against live Infisical servers: never in the default run, only when named. */
export const infisicalLiveCases: BenchCase[] = [readCase, listCase];
