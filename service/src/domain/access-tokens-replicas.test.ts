import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPath, type EndpointId, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDatabase } from "../test/harness.ts";
import { type ServerProcess, startServerProcess } from "../test/processes.ts";

const pgAdminUrl = process.env.KEYHOLD_TEST_DATABASE_URL;

describe.skipIf(!pgAdminUrl)(
  `Two service processes on one PostgreSQL${pgAdminUrl ? "" : " [skipped: set KEYHOLD_TEST_DATABASE_URL to run]"}`,
  () => {
    let database: { url: string; drop: () => Promise<void> };
    const dataDirs: string[] = [];
    let a: ServerProcess;
    let b: ServerProcess;
    let adminToken: string;
    let orgId: string;

    beforeAll(async () => {
      database = await createPgDatabase();
      // Instances behind one balancer share the database and the root key, nothing else.
      const rootKey = randomBytes(32).toString("base64");
      const start = () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-replica-"));
        dataDirs.push(dataDir);
        return startServerProcess("service", {
          KEYHOLD_DATA_DIR: dataDir,
          DATABASE_URL: database.url,
          KEYHOLD_ROOT_KEY: rootKey,
          LOG_LEVEL: "warn",
        });
      };
      // One after the other: the first sets up the empty database, the second finds it set up.
      a = await start();
      b = await start();
      adminToken = fs.readFileSync(path.join(dataDirs[0] as string, "admin-token"), "utf8");
      const me = await call(a, "identities.get", { identityId: decodeIdentity(adminToken) }, adminToken);
      orgId = (me.json.identity as { orgId: string }).orgId;
    }, 120_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    async function call(
      server: ServerProcess,
      id: EndpointId,
      params: Record<string, string>,
      token: string | undefined,
      body?: unknown,
    ): Promise<{ status: number; json: Record<string, unknown> }> {
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
    }

    function decodeIdentity(token: string): string {
      const payload = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString("utf8"));
      return payload.identityId as string;
    }

    /** An identity (org role member) with token auth whose tokens allow `uses` uses; returns a new token. */
    async function limitedToken(name: string, uses: number): Promise<{ identityId: string; token: string }> {
      const created = await call(a, "identities.create", {}, adminToken, {
        name,
        organizationId: orgId,
        role: "member",
      });
      expect(created.status).toBe(200);
      const identityId = (created.json.identity as { id: string }).id;
      // Set up through one instance, issued through the other.
      const attached = await call(b, "tokenAuth.attach", { identityId }, adminToken, { accessTokenNumUsesLimit: uses });
      expect(attached.status).toBe(200);
      const issued = await call(a, "tokenAuth.createToken", { identityId }, adminToken, { name: "replica" });
      expect(issued.status).toBe(200);
      return { identityId, token: issued.json.accessToken as string };
    }

    it("a token limited to 5 uses admits exactly 5 of 50 concurrent requests spread over both", async () => {
      const { identityId, token } = await limitedToken("uses-limited", 5);
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(i % 2 === 0 ? a : b, "identities.get", { identityId }, token)),
      ).then((answers) => answers.map((answer) => answer.status));
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 401)).toHaveLength(45);
      // Spent everywhere.
      expect((await call(a, "identities.get", { identityId }, token)).status).toBe(401);
      expect((await call(b, "identities.get", { identityId }, token)).status).toBe(401);
    });

    it("a revocation through one instance is refused on the very next request to the other", async () => {
      const { identityId, token } = await limitedToken("revoked-elsewhere", 0);
      expect((await call(b, "identities.get", { identityId }, token)).status).toBe(200);
      expect((await call(a, "identities.get", { identityId }, token)).status).toBe(200);
      const revoked = await call(a, "accessTokens.revoke", {}, undefined, { accessToken: token });
      expect(revoked.status).toBe(200);
      const refused = await call(b, "identities.get", { identityId }, token);
      expect(refused.status).toBe(401);
      expect(refused.json.message).toMatch(/revoked/);
    });
  },
);
