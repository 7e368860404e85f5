import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import SqliteDatabase from "better-sqlite3";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { listeningPid, localPort, treeCpuSeconds } from "../lib/cpu.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { call } from "./secrets-list.ts";

const BATCH = 1_000;
const ROUNDS = 7;
const count = new Intl.NumberFormat("en");

const keyOf = (round: number, n: number) => `BATCH_${round}_${String(n).padStart(5, "0")}`;
const value = () => randomBytes(24).toString("base64url");

async function createProject(service: RunningService, slug: string): Promise<string> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, { projectName: slug, slug }),
  );
  return created.project.id;
}

/** Wall-clock ms, and CPU ms of the process that did the work (the service's tree, or this one). */
interface Cost {
  ms: number;
  cpuMs: number;
}

async function timed(work: () => Promise<unknown> | unknown, servicePid?: number): Promise<Cost> {
  const cpuBefore = servicePid === undefined ? process.cpuUsage() : undefined;
  const treeBefore = servicePid === undefined ? 0 : treeCpuSeconds(servicePid);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  if (cpuBefore) {
    const used = process.cpuUsage(cpuBefore);
    return { ms, cpuMs: (used.user + used.system) / 1000 };
  }
  return { ms, cpuMs: (treeCpuSeconds(servicePid as number) - treeBefore) * 1000 };
}

/** One batch create, then one batch update of the same 1,000 secrets, through the service's HTTP API. */
async function serviceRound(service: RunningService, projectId: string, round: number, pid: number) {
  const where = { workspaceId: projectId, environment: "dev", secretPath: "/" };
  const path = endpoints["secrets.batchCreate"].path;
  const items = Array.from({ length: BATCH }, (_, n) => ({ secretKey: keyOf(round, n), secretValue: value() }));
  let answered = 0;
  const create = await timed(async () => {
    answered = ((await call(service, "POST", path, { ...where, secrets: items })) as { secrets: unknown[] }).secrets
      .length;
  }, pid);
  if (answered !== BATCH) throw new Error(`batch create answered ${answered} secrets`);
  const changes = items.map(({ secretKey }) => ({ secretKey, secretValue: value() }));
  const update = await timed(async () => {
    answered = ((await call(service, "PATCH", path, { ...where, secrets: changes })) as { secrets: unknown[] }).secrets
      .length;
  }, pid);
  if (answered !== BATCH) throw new Error(`batch update answered ${answered} secrets`);
  return { create, update };
}

function seal(key: Buffer, plaintext: string, aad: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.of(1), iv, cipher.getAuthTag(), body]);
}

/**
 * The floor: the same rows written the cheapest correct way, in this process, on the service's
 * own SQLite file (WAL, synchronous FULL, as the service opens it), in one transaction each:
 * every value and comment sealed with AES-256-GCM bound to its row, one secret row and one
 * version row per secret (create), or the new value with the next version number and its version
 * row (update). No HTTP, no JSON, no validation, no permission rules, no existence checks.
 */
function floorWriter(file: string, projectId: string) {
  const db = new SqliteDatabase(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  const folder = db
    .prepare(
      "SELECT f.id AS folder_id, e.id AS env_id FROM secret_folders f JOIN project_environments e ON e.id = f.env_id " +
        "WHERE e.project_id = ? AND e.slug = 'dev' AND f.parent_id IS NULL",
    )
    .get(projectId) as { folder_id: string; env_id: string };
  const key = randomBytes(32);
  const insertSecret = db.prepare(
    "INSERT INTO secrets (id, project_id, env_id, folder_id, type, user_id, key, version, value_ciphertext, " +
      "comment_ciphertext, skip_multiline_encoding, created_at, updated_at) " +
      "VALUES (?, ?, ?, ?, 'shared', NULL, ?, ?, ?, ?, 0, ?, ?)",
  );
  const insertVersion = db.prepare(
    "INSERT INTO secret_versions (id, secret_id, project_id, env_id, folder_id, type, user_id, key, version, " +
      "value_ciphertext, comment_ciphertext, skip_multiline_encoding, actor_type, actor_id, created_at) " +
      "VALUES (?, ?, ?, ?, ?, 'shared', NULL, ?, ?, ?, ?, 0, 'identity', 'floor', ?)",
  );
  const bump = db.prepare(
    "UPDATE secrets SET value_ciphertext = ?, updated_at = ?, version = version + 1 WHERE id = ? RETURNING version",
  );
  const version = (secretId: string, name: string, n: number, plain: string, now: string) => {
    const id = randomUUID();
    insertVersion.run(
      id,
      secretId,
      projectId,
      folder.env_id,
      folder.folder_id,
      name,
      n,
      seal(key, plain, `secret_versions:${id}:value_ciphertext`),
      seal(key, "", `secret_versions:${id}:comment_ciphertext`),
      now,
    );
  };
  const create = db.transaction((names: string[]) => {
    const now = new Date().toISOString();
    return names.map((name) => {
      const id = randomUUID();
      const plain = value();
      insertSecret.run(
        id,
        projectId,
        folder.env_id,
        folder.folder_id,
        name,
        1,
        seal(key, plain, `secrets:${id}:value_ciphertext`),
        seal(key, "", `secrets:${id}:comment_ciphertext`),
        now,
        now,
      );
      version(id, name, 1, plain, now);
      return { id, name };
    });
  });
  const update = db.transaction((secrets: { id: string; name: string }[]) => {
    const now = new Date().toISOString();
    for (const { id, name } of secrets) {
      const plain = value();
      const row = bump.get(seal(key, plain, `secrets:${id}:value_ciphertext`), now, id) as { version: number };
      version(id, name, row.version, plain, now);
    }
  });
  return { create, update, close: () => db.close() };
}

export const secretsBatchCase: BenchCase = {
  id: "secrets-batch",
  title: `One batch create and one batch update of ${count.format(BATCH)} secrets on SQLite: the service (HTTP, validated, permission-checked, all or nothing) against bare SQL in one transaction`,
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await startService(context, { postgres: false });
    if (!service.sqliteFile) throw new Error("the batch case runs on SQLite");
    const projectId = await createProject(service, "batch-bench");
    const floorProject = await createProject(service, "batch-floor");
    // A first read makes the environment's root folder, which the floor writes into.
    await call(service, "GET", `/api/v3/secrets/raw?workspaceId=${floorProject}&environment=dev&secretPath=%2F`);
    const port = localPort(service.url);
    const pid = port ? listeningPid(port) : undefined;
    if (!pid) throw new Error("the service's process was not found");
    // Warm-up: the first batch also makes the project's data key and JITs the paths.
    await serviceRound(service, projectId, 0, pid);
    const floor = floorWriter(service.sqliteFile, floorProject);
    const measured = { create: [] as Cost[], update: [] as Cost[] };
    const bare = { create: [] as Cost[], update: [] as Cost[] };
    try {
      floor.update(floor.create(Array.from({ length: BATCH }, (_, n) => keyOf(0, n))));
      for (let round = 1; round <= ROUNDS; round++) {
        const ours = await serviceRound(service, projectId, round, pid);
        measured.create.push(ours.create);
        measured.update.push(ours.update);
        let rows: { id: string; name: string }[] = [];
        const names = Array.from({ length: BATCH }, (_, n) => keyOf(round, n));
        bare.create.push(
          await timed(() => {
            rows = floor.create(names);
          }),
        );
        bare.update.push(await timed(() => floor.update(rows)));
      }
    } finally {
      floor.close();
    }
    const list = (costs: Cost[]) => costs.map((c) => `${c.ms.toFixed(0)}/${c.cpuMs.toFixed(0)}`).join(", ");
    console.error(`  service create ${list(measured.create)}; update ${list(measured.update)} (wall/CPU ms)`);
    console.error(`  floor create ${list(bare.create)}; update ${list(bare.update)} (wall/CPU ms)`);
    const rows = (what: "create" | "update"): ResultRow[] => [
      {
        case: `batch ${what} of ${count.format(BATCH)} secrets (SQLite)`,
        metric: `median ms of ${ROUNDS}`,
        keyhold: Math.round(median(measured[what].map((c) => c.ms))),
        reference: Math.round(median(bare[what].map((c) => c.ms))),
        referenceName: "bare SQL, one transaction",
        higherIsBetter: false,
      },
      {
        case: `batch ${what} of ${count.format(BATCH)} secrets (SQLite)`,
        metric: `median CPU ms of ${ROUNDS}`,
        keyhold: Math.round(median(measured[what].map((c) => c.cpuMs))),
        reference: Math.round(median(bare[what].map((c) => c.cpuMs))),
        referenceName: "bare SQL, one transaction",
        higherIsBetter: false,
      },
    ];
    return [...rows("create"), ...rows("update")];
  },
};
