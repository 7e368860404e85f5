import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPath, endpoints } from "@keyhold/contract";
import SqliteDatabase from "better-sqlite3";
import { decodeJwt } from "jose";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPgDatabase, type DatabaseKind, describeEachDatabase } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer } from "../test/loopback.ts";
import { type ServerProcess, startServerProcess, waitUntil } from "../test/processes.ts";

/** A promise with its resolve function, to hold the stand-in cluster's answer until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describeEachDatabase("Graceful shutdown of the service process on SIGTERM", (kind: DatabaseKind) => {
  let dataDir: string;
  let pgDb: { url: string; drop: () => Promise<void> } | undefined;
  let cluster: LoopbackPeer;
  let svc: ServerProcess | undefined;
  const reviewArrived = gate();
  const releaseReview = gate();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-shutdown-"));
    pgDb = kind === "postgres" ? await createPgDatabase() : undefined;
    // The Kubernetes API stand-in holds its TokenReview answer until the test releases it: a
    // login in flight for as long as the test wants, with nothing in the service made for tests.
    cluster = await startLoopbackPeer(async () => {
      reviewArrived.open();
      await releaseReview.promise;
      return {
        status: 201,
        body: { status: { authenticated: true, user: { username: "system:serviceaccount:payments:deployer" } } },
      };
    });
    svc = await startServerProcess("service", {
      KEYHOLD_DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url,
      // Nothing is written by the timer during the test: only the shutdown can write the uses.
      KEYHOLD_TOKEN_USAGE_FLUSH_MS: "60000",
      KEYHOLD_SHUTDOWN_GRACE_MS: "60000",
    });
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await cluster?.close();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The admin token's use count as stored in the database. */
  async function storedUses(tokenId: string): Promise<number> {
    const query = "select access_token_num_uses as uses from identity_access_tokens where id = $1";
    if (pgDb) {
      const client = new pg.Client({ connectionString: pgDb.url });
      await client.connect();
      try {
        return Number((await client.query(query, [tokenId])).rows[0].uses);
      } finally {
        await client.end();
      }
    }
    const sqlite = new SqliteDatabase(path.join(dataDir, "keyhold.db"), { readonly: true });
    try {
      return (sqlite.prepare(query.replace("$1", "?")).get(tokenId) as { uses: number }).uses;
    } finally {
      sqlite.close();
    }
  }

  it("finishes the request in flight, writes the batched token uses, and exits 0", async () => {
    const server = svc as ServerProcess;
    const adminToken = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8");
    const adminTokenId = decodeJwt(adminToken).identityAccessTokenId as string;
    const api = async (id: keyof typeof endpoints, params: Record<string, string>, body?: unknown, token?: string) => {
      const spec = endpoints[id];
      const response = await fetch(server.url + buildPath(spec.path, params), {
        method: spec.method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };

    // Five authenticated requests with the admin token; its uses wait in memory.
    const created = await api(
      "identities.create",
      {},
      { name: "k8s-deployer", organizationId: await orgOf(), role: "member" },
      adminToken,
    );
    expect(created.status).toBe(200);
    const identityId = (created.json.identity as { id: string }).id;
    const attach = { kubernetesHost: cluster.url, allowedNamespaces: "", allowedNames: "", allowedAudience: "" };
    expect((await api("kubernetesAuth.attach", { identityId }, attach, adminToken)).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await api("identities.get", { identityId }, undefined, adminToken)).status).toBe(200);
    expect(await storedUses(adminTokenId)).toBe(0);

    // A login that waits on the cluster is in flight when SIGTERM arrives.
    const login = api("kubernetesAuth.login", {}, { identityId, jwt: "service-account-jwt" });
    await reviewArrived.promise;
    server.child.kill("SIGTERM");
    // The listener closes: new connections are refused while the login is still running.
    await waitUntil("the listener to close", async () => {
      try {
        await fetch(`${server.url}/healthz`);
        return false;
      } catch {
        return true;
      }
    });
    expect(server.child.exitCode).toBeNull();

    releaseReview.open();
    const answered = await login;
    expect(answered.status).toBe(200);
    expect(answered.json).toMatchObject({ tokenType: "Bearer", accessToken: expect.any(String) });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("Shutting down");

    // 1 create + 1 attach + 2 reads + the orgOf read, written by the shutdown alone.
    expect(await storedUses(adminTokenId)).toBe(5);

    async function orgOf(): Promise<string> {
      const adminIdentityId = decodeJwt(adminToken).identityId as string;
      const read = await api("identities.get", { identityId: adminIdentityId }, undefined, adminToken);
      return (read.json.identity as { orgId: string }).orgId;
    }
  }, 60_000);
});
