import { randomBytes } from "node:crypto";
import { buildPath, endpoints } from "@keyhold/contract";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { freePort, startProgram, waitForUrl } from "../lib/processes.ts";
import { csrfHeaders, type RunningService, startService } from "../lib/stack.ts";
import { compare, ensureWrk } from "../lib/wrk.ts";
import { signIn, startBff } from "./bff-hop.ts";
import { deriveTokenSigningKey } from "@keyhold/service/tokens";

export const SECRET_COUNT = 10_000;
/** Each answer is megabytes: a few connections measure the path, not the socket buffers. */
const load = { connections: 4, durationSeconds: 5 };

export async function call(service: RunningService, method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${service.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The seeded secrets' names: SERVICE_00000_KEY … SERVICE_09999_KEY. */
export function secretKeyOf(n: number): string {
  return `SERVICE_${String(n).padStart(5, "0")}_KEY`;
}

export interface SeedSecret {
  secretKey: string;
  secretValue: string;
  secretComment?: string;
}

/** `count` secrets as the cases seed them: random 32-character values, a comment on every tenth. */
export function seedSecrets(count: number): SeedSecret[] {
  return Array.from({ length: count }, (_, n) => ({
    secretKey: secretKeyOf(n),
    secretValue: randomBytes(24).toString("base64url"),
    ...(n % 10 === 0 && { secretComment: `rotated by the platform team, batch ${n}` }),
  }));
}

/** A project whose dev environment holds the given secrets at the root, created through the API. */
export async function seedProject(
  service: RunningService,
  secrets: readonly SeedSecret[] = seedSecrets(SECRET_COUNT),
): Promise<string> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, { projectName: "Bench", slug: "bench" }),
  );
  const projectId = created.project.id;
  let next = 0;
  const worker = async () => {
    while (next < secrets.length) {
      const { secretKey, ...rest } = secrets[next++] as SeedSecret;
      await call(service, "POST", buildPath(endpoints["secrets.create"].path, { secretName: secretKey }), {
        workspaceId: projectId,
        environment: "dev",
        secretPath: "/",
        ...rest,
      });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return projectId;
}

/** The measured list: every secret of the dev environment's root folder, values decrypted. */
export function listPath(projectId: string): string {
  return `/api/v3/secrets/raw?workspaceId=${projectId}&environment=dev&secretPath=%2F`;
}

/** The bare floor over the service's own database (bench/src/floors/bare-secrets.ts). */
export async function startSecretsFloor(context: BenchContext, service: RunningService): Promise<string> {
  const port = await freePort();
  const signingKey = Buffer.from(deriveTokenSigningKey(Buffer.from(service.rootKeyHex, "hex")));
  const floor = context.processes.add(
    startProgram("bare secrets floor", process.execPath, ["--import", "tsx", "bench/src/floors/bare-secrets.ts"], {
      env: {
        PORT: String(port),
        SIGNING_KEY_HEX: signingKey.toString("hex"),
        ROOT_KEY_HEX: service.rootKeyHex,
        ...(service.sqliteFile && { SQLITE_FILE: service.sqliteFile }),
        ...(service.databaseUrl && { DATABASE_URL: service.databaseUrl }),
      },
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/healthz`, floor);
  return url;
}

/** Both answer with every seeded row before anything is measured. */
async function expectAll(url: string, headers: Record<string, string>, what: string): Promise<void> {
  const response = await fetch(url, { headers });
  const body = (await response.json()) as { secrets?: unknown[] };
  if (!response.ok || body.secrets?.length !== SECRET_COUNT) {
    throw new Error(`${what} answered ${response.status} with ${body.secrets?.length ?? 0} secrets`);
  }
}

function serviceList(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Listing ${SECRET_COUNT.toLocaleString("en")} secrets on ${database}: the service (decrypted, permission-filtered) against a bare SELECT`,
    async run(context: BenchContext) {
      ensureWrk();
      const service = await startService(context, { postgres: database === "PostgreSQL" });
      console.error(`  seeding ${SECRET_COUNT} secrets through the API…`);
      const projectId = await seedProject(service);
      const floorUrl = await startSecretsFloor(context, service);
      const headers = { authorization: `Bearer ${service.adminToken}` };
      await expectAll(`${service.url}${listPath(projectId)}`, headers, "the service");
      await expectAll(`${floorUrl}${listPath(projectId)}`, headers, "the floor");
      return compare(
        `list ${SECRET_COUNT.toLocaleString("en")} secrets (${database})`,
        { name: "service", options: { url: `${service.url}${listPath(projectId)}`, headers, ...load } },
        { name: "bare SELECT", options: { url: `${floorUrl}${listPath(projectId)}`, headers, ...load } },
      );
    },
  };
}

const bffList: BenchCase = {
  id: "secrets-list-bff",
  title: `Listing ${SECRET_COUNT.toLocaleString("en")} secrets through the BFF against the service directly`,
  async run(context: BenchContext) {
    ensureWrk();
    const service = await startService(context, { postgres: false });
    console.error(`  seeding ${SECRET_COUNT} secrets through the API…`);
    const projectId = await seedProject(service);
    const bffUrl = await startBff(context, service.url, undefined);
    const cookie = await signIn(bffUrl, service);
    const viaBff = { cookie, ...csrfHeaders };
    const direct = { authorization: `Bearer ${service.adminToken}` };
    await expectAll(`${bffUrl}${listPath(projectId)}`, viaBff, "the BFF");
    return compare(
      `list ${SECRET_COUNT.toLocaleString("en")} secrets through the BFF`,
      { name: "BFF", options: { url: `${bffUrl}${listPath(projectId)}`, headers: viaBff, ...load } },
      { name: "service direct", options: { url: `${service.url}${listPath(projectId)}`, headers: direct, ...load } },
    );
  },
};

export const secretsListCases: BenchCase[] = [
  serviceList("secrets-list", "SQLite"),
  serviceList("secrets-list-pg", "PostgreSQL"),
  bffList,
];
