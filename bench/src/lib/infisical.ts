import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SeedSecret } from "../cases/secrets-list.ts";

/**
 * A live Infisical server that Keyhold is measured against. ../shared/tools/infisical/ starts one
 * of each version on loopback, each with its own PostgreSQL, and writes its URL and an org-admin
 * identity's token into a state folder; the environment can point at any other server instead.
 */
export interface InfisicalServer {
  /** "2024" or "2026": the settings it was read from (KEYHOLD_BENCH_INFISICAL_<version>_*). */
  version: InfisicalVersion;
  /** The version as the table names it: "Infisical 2024-10 (09d28156)". */
  label: string;
  url: string;
  /** An org-admin machine identity's access token. */
  token: string;
  identityId: string;
  /** The admin URL of the PostgreSQL server this Infisical keeps its data in. */
  postgresUrl: string;
}

export const infisicalVersions = {
  "2024": {
    stateDir: "/tmp/infisical-local",
    label: "Infisical 2024-10 (09d28156)",
    start: "MIRRORS=… bash ../shared/tools/infisical/2024/start.sh",
  },
  "2026": {
    stateDir: "/tmp/infisical-local-new",
    label: "Infisical 2026-06 (upstream backend of 2026-06-30)",
    start: "MIRRORS=… bash ../shared/tools/infisical/2026/start.sh",
  },
} as const;
export type InfisicalVersion = keyof typeof infisicalVersions;

function isVersion(value: string): value is InfisicalVersion {
  return Object.hasOwn(infisicalVersions, value);
}

function stateFile(dir: string, name: string): string | undefined {
  const file = path.join(dir, name);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

/** The identity a token-auth access token belongs to, from its (unverified) payload. */
function identityIdOf(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      identityId?: unknown;
    };
    return typeof payload.identityId === "string" ? payload.identityId : undefined;
  } catch {
    return undefined;
  }
}

/** The PostgreSQL a start.sh server runs on: its `ports` file names the port, trust auth on loopback. */
function postgresOfState(dir: string): string | undefined {
  const port = /^PG_PORT_SAVED=(\d+)$/m.exec(stateFile(dir, "ports") ?? "")?.[1];
  return port ? `postgres://postgres@127.0.0.1:${port}/postgres` : undefined;
}

/**
 * The servers to measure against. KEYHOLD_BENCH_INFISICAL_VERSIONS picks them ("2024,2026" by
 * default); for each version, KEYHOLD_BENCH_INFISICAL_<version>_URL, _TOKEN, _DATABASE_URL (the
 * PostgreSQL server's admin URL), _IDENTITY_ID and _LABEL override what its state folder says.
 */
export function infisicalServers(env: NodeJS.ProcessEnv = process.env): InfisicalServer[] {
  const picked = (env.KEYHOLD_BENCH_INFISICAL_VERSIONS ?? "2024,2026").split(/[\s,]+/).filter((v) => v !== "");
  const unknown = picked.filter((v) => !isVersion(v));
  if (unknown.length > 0 || picked.length === 0) {
    throw new Error(
      `KEYHOLD_BENCH_INFISICAL_VERSIONS names ${unknown.join(", ") || "nothing"}; known: ${Object.keys(infisicalVersions).join(", ")}`,
    );
  }
  return picked.filter(isVersion).map((version) => {
    const defaults = infisicalVersions[version];
    const setting = (name: string) => env[`KEYHOLD_BENCH_INFISICAL_${version}_${name}`] || undefined;
    const url = setting("URL") ?? stateFile(defaults.stateDir, "url");
    const token = setting("TOKEN") ?? stateFile(defaults.stateDir, "token");
    const postgresUrl = setting("DATABASE_URL") ?? postgresOfState(defaults.stateDir);
    const identityId = setting("IDENTITY_ID") ?? (token && identityIdOf(token));
    if (!url || !token || !postgresUrl || !identityId) {
      const found = { URL: url, TOKEN: token, DATABASE_URL: postgresUrl, IDENTITY_ID: identityId };
      const missing = Object.keys(found).filter((name) => !found[name as keyof typeof found]);
      throw new Error(
        `no ${defaults.label} to measure against: start it (${defaults.start}) or set ` +
          `${missing.map((name) => `KEYHOLD_BENCH_INFISICAL_${version}_${name}`).join(", ")}; ` +
          `KEYHOLD_BENCH_INFISICAL_VERSIONS picks the versions to measure`,
      );
    }
    return { version, label: setting("LABEL") ?? defaults.label, url, token, identityId, postgresUrl };
  });
}

/** The table's short name for the server, without the commit. */
export function shortLabel(server: InfisicalServer): string {
  return server.label.replace(/\s*\(.*\)$/, "");
}

export function bearer(server: { token: string }): Record<string, string> {
  return { authorization: `Bearer ${server.token}` };
}

export async function infisicalCall(
  server: InfisicalServer,
  method: string,
  url: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { ...bearer(server), ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${server.label}: ${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** The identity's own record, the read the live read case measures on both sides. */
export function identityReadPath(identityId: string): string {
  return `/api/v1/identities/${encodeURIComponent(identityId)}`;
}

const BATCH_SIZE = 100;

/**
 * A new project whose dev environment holds the given secrets at the root, created through the
 * server's API (POST /api/v2/workspace, then POST /api/v3/secrets/batch/raw, both answered by
 * every version measured).
 */
export async function seedInfisicalProject(
  server: InfisicalServer,
  secrets: readonly SeedSecret[],
): Promise<{ projectId: string }> {
  const suffix = randomBytes(4).toString("hex");
  const created = (await infisicalCall(server, "POST", "/api/v2/workspace", {
    projectName: `Keyhold bench ${suffix}`,
    slug: `keyhold-bench-${suffix}`,
  })) as { project?: { id?: unknown } };
  const projectId = created.project?.id;
  if (typeof projectId !== "string") throw new Error(`${server.label}: no project id in ${JSON.stringify(created)}`);
  for (let start = 0; start < secrets.length; start += BATCH_SIZE) {
    await infisicalCall(server, "POST", "/api/v3/secrets/batch/raw", {
      workspaceId: projectId,
      environment: "dev",
      secretPath: "/",
      secrets: secrets.slice(start, start + BATCH_SIZE),
    });
  }
  return { projectId };
}

/** Deletes a project the bench created, so repeated runs leave the server as they found it. */
export async function deleteInfisicalProject(server: InfisicalServer, projectId: string): Promise<void> {
  await infisicalCall(server, "DELETE", `/api/v1/workspace/${encodeURIComponent(projectId)}`);
}
