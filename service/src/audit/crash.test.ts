import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPath, endpoints } from "@keyhold/contract";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { createPgDatabase, type DatabaseKind, describeEachDatabase } from "../test/harness.ts";
import { type ServerProcess, startServerProcess } from "../test/processes.ts";

/**
 * Kill -9 in the middle of 8-way writes: the real service as a process, eight writers creating
 * and updating secrets, SIGKILL at a random moment, a restart on the same data. Then every write
 * that was answered 2xx has exactly one event, every stored secret version (acknowledged or not)
 * has exactly one event, no event names a version that is not stored, and the chain verifies.
 */

const WRITERS = 8;

interface Ack {
  requestId: string;
  type: "create-secret" | "update-secret";
  secretKey: string;
  version: number;
}

interface EventRow {
  request_id: string | null;
  event_type: string | null;
  event_metadata: string | null;
}

describeEachDatabase("audit events across a kill -9", (kind: DatabaseKind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("keeps exactly one event per change, acknowledged or not, and the chain holds", { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-crash-"));
    const pgDb = kind === "postgres" ? await createPgDatabase() : undefined;
    cleanups.push(async () => {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const env = {
      KEYHOLD_DATA_DIR: dataDir,
      KEYHOLD_ROOT_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
      ...(pgDb && { DATABASE_URL: pgDb.url }),
    };
    let service: ServerProcess = await startServerProcess("service", env);
    cleanups.push(async () => {
      await service.stop();
    });
    const token = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim();
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${service.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });

    const created = await call("POST", endpoints["projects.create"].path, { projectName: "Crash", slug: "crash" });
    expect(created.status).toBe(200);
    const projectId = endpoints["projects.create"].response.parse(await created.json()).project.id;
    const place = { workspaceId: projectId, environment: "dev", secretPath: "/" };

    const acks: Ack[] = [];
    let killed = false;
    /** Creates a secret, then updates it twice, then the next one, until the process dies. */
    async function writer(w: number): Promise<void> {
      for (let i = 0; !killed; i++) {
        const secretKey = `W${w}_${i}`;
        for (let step = 0; step < 3 && !killed; step++) {
          const type = step === 0 ? "create-secret" : "update-secret";
          const url = buildPath(endpoints[step === 0 ? "secrets.create" : "secrets.update"].path, {
            secretName: secretKey,
          });
          let res: Response;
          try {
            res = await call(step === 0 ? "POST" : "PATCH", url, { ...place, secretValue: `v${step}-${i}` });
          } catch {
            return; // the process is gone
          }
          if (res.status < 200 || res.status >= 300) {
            if (killed) return;
            throw new Error(`${type} ${secretKey} answered ${res.status}: ${await res.text()}`);
          }
          const { secret } = (await res.json()) as { secret: { version: number } };
          acks.push({ requestId: String(res.headers.get("x-request-id")), type, secretKey, version: secret.version });
        }
      }
    }
    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    // Let the writers get going, then kill the process at a moment nobody chose.
    while (acks.length < 40) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
    killed = true;
    service.child.kill("SIGKILL");
    await service.exited;
    await writing;
    expect(acks.length).toBeGreaterThanOrEqual(40);

    service = await startServerProcess("service", env);
    const { events, versions } = await readBack(kind, dataDir, pgDb?.url, projectId);

    // Every acknowledged write has exactly one event, naming what the answer said.
    const byRequest = new Map<string, EventRow[]>();
    for (const event of events)
      byRequest.set(event.request_id ?? "", [...(byRequest.get(event.request_id ?? "") ?? []), event]);
    for (const ack of acks) {
      const found = byRequest.get(ack.requestId) ?? [];
      expect(found, `events of ${ack.type} ${ack.secretKey} v${ack.version}`).toHaveLength(1);
      expect(found[0]?.event_type).toBe(ack.type);
      expect(JSON.parse(found[0]?.event_metadata ?? "{}")).toMatchObject({
        secretKey: ack.secretKey,
        secretVersion: ack.version,
      });
    }
    // Every stored version has exactly one event, and every event names a stored version.
    const changeEvents = events.filter((e) => e.event_type === "create-secret" || e.event_type === "update-secret");
    const named = changeEvents.map((e) => {
      const metadata = JSON.parse(e.event_metadata ?? "{}") as { secretId: string; secretVersion: number };
      return `${metadata.secretId}:${metadata.secretVersion}`;
    });
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(versions.map((v) => `${v.secret_id}:${v.version}`).sort());

    const verified = await fetch(`${service.url}${endpoints["auditLogs.verify"].path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { verification } = endpoints["auditLogs.verify"].response.parse(await verified.json());
    expect(verification).toMatchObject({ ok: true, firstBroken: null });
    expect(verification.checkedEvents).toBe(verification.lastSeq);
    expect(verification.checkedEvents).toBeGreaterThanOrEqual(acks.length);
  });
});

/** The events and the secret versions of the project, read straight from the database. */
async function readBack(kind: DatabaseKind, dataDir: string, url: string | undefined, projectId: string) {
  const eventsSql = "SELECT request_id, event_type, event_metadata FROM audit_events ORDER BY org_seq";
  const versionsSql = "SELECT secret_id, version FROM secret_versions WHERE project_id = $1";
  if (kind === "postgres") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const events = (await client.query<EventRow>(eventsSql)).rows;
      const versions = (await client.query<{ secret_id: string; version: number }>(versionsSql, [projectId])).rows;
      return { events, versions };
    } finally {
      await client.end();
    }
  }
  const db = new SqliteDatabase(path.join(dataDir, "keyhold.db"), { readonly: true });
  try {
    const events = db.prepare(eventsSql).all() as EventRow[];
    const versions = db.prepare(versionsSql.replace("$1", "?")).all(projectId) as {
      secret_id: string;
      version: number;
    }[];
    return { events, versions };
  } finally {
    db.close();
  }
}
