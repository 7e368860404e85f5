import { buildPath, endpoints } from "@keyhold/contract";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { call, seedSecrets } from "./secrets-list.ts";

const COUNT = 1_000;
const ROUNDS = 5;

/**
 * A rollback that brings back a deleted folder of 1,000 secrets, in one request: every secret
 * re-inserted with its recorded version's value (decrypted and encrypted again) and a new version
 * written, the folder's commit recorded, in one transaction. Beside it, the same 1,000 secrets
 * written one create at a time (16 in parallel), the way back without a rollback.
 */
async function measure(service: RunningService, label: string): Promise<ResultRow[]> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, { projectName: "Rollback", slug: "rollback" }),
  );
  const projectId = created.project.id;
  await call(service, "PATCH", buildPath(endpoints["projects.update"].path, { workspaceId: projectId }), {
    pitVersionLimit: 100,
  });
  const where = { workspaceId: projectId, environment: "dev" };
  await call(service, "POST", endpoints["folders.create"].path, { ...where, path: "/", name: "app" });

  const secrets = seedSecrets(COUNT);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < secrets.length) {
        const { secretKey, ...rest } = secrets[next++] as (typeof secrets)[number];
        await call(service, "POST", buildPath(endpoints["secrets.create"].path, { secretName: secretKey }), {
          ...where,
          secretPath: "/app",
          ...rest,
        });
      }
    }),
  );
  const singleWrites = performance.now() - started;
  // A change of the root after the folder filled up: the point the rollback returns to.
  await call(service, "POST", buildPath(endpoints["secrets.create"].path, { secretName: "MARKER" }), {
    ...where,
    secretPath: "/",
    secretValue: "after the folder filled up",
  });

  const commits = async () =>
    endpoints["pitCommits.list"].response.parse(
      await call(
        service,
        "GET",
        `${endpoints["pitCommits.list"].path}?projectId=${projectId}&environment=dev&path=%2F&limit=1`,
      ),
    ).commits;
  const [withApp] = await commits();
  const folders = endpoints["folders.list"].response.parse(
    await call(service, "GET", `${endpoints["folders.list"].path}?workspaceId=${projectId}&environment=dev&path=%2F`),
  ).folders;
  await call(service, "DELETE", buildPath(endpoints["folders.delete"].path, { folderId: folders[0]?.id ?? "" }), {
    ...where,
    path: "/",
  });
  const [withoutApp] = await commits();
  if (!withApp || !withoutApp) throw new Error("the root folder has no commits");

  const rollback = (commitId: string) =>
    call(service, "POST", buildPath(endpoints["pitCommits.rollback"].path, { commitId }), {
      projectId,
      folderId: withApp.folderId,
      environment: "dev",
      deepRollback: true,
    }) as Promise<{ secretChangesCount?: number }>;

  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const answer = await rollback(withApp.id);
    times.push(performance.now() - t0);
    if (answer.secretChangesCount !== COUNT) {
      throw new Error(`the rollback restored ${answer.secretChangesCount} secrets, not ${COUNT}`);
    }
    await rollback(withoutApp.id);
  }
  console.error(
    `  rollbacks (ms): ${times.map((t) => t.toFixed(0)).join(", ")}; single creates ${singleWrites.toFixed(0)} ms`,
  );
  return [
    {
      case: `roll back a deleted 1,000-secret folder (${label})`,
      metric: "median ms",
      keyhold: Math.round(median(times)),
      reference: Math.round(singleWrites),
      referenceName: "1,000 single creates",
      higherIsBetter: false,
    },
  ];
}

function rollbackCase(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Rolling back a 1,000-secret folder on ${database}: one rollback request against 1,000 single creates`,
    async run(context: BenchContext) {
      const service = await startService(context, { postgres: database === "PostgreSQL" });
      return measure(service, database);
    },
  };
}

export const pitRollbackCases: BenchCase[] = [
  rollbackCase("pit-rollback", "SQLite"),
  rollbackCase("pit-rollback-pg", "PostgreSQL"),
];
