import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { writeFreshAdminToken } from "../cli/admin-token.ts";
import { loadConfig } from "../config.ts";
import { createPgDatabase, describeEachDatabase, startService } from "../test/harness.ts";

describeEachDatabase("bootstrap", (kind) => {
  it("writes a working 0600 admin token and logs its path, never the token", async () => {
    const svc = await startService({ kind });
    try {
      const file = path.join(svc.config.dataDir, "admin-token");
      expect(svc.info.adminTokenFile).toBe(file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const token = fs.readFileSync(file, "utf8");
      expect(token).toBe(svc.info.bootstrapToken);
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/); // the JWT alone, no newline

      const res = await svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } }, { token });
      expect(res.status).toBe(200);
      expect(endpoints["identities.get"].response.parse(res.body).identity.orgId).toBe(svc.info.orgId);

      const setupLine = svc
        .logs()
        .split("\n")
        .find((line) => line.includes("admin token file"));
      expect(setupLine).toContain(JSON.stringify(file));
      expect(svc.logs()).not.toContain(token);
    } finally {
      await svc.close();
    }
  });

  it("sets up only an empty database: a restart keeps the organisation and the token file", async () => {
    const first = await startService({ kind });
    const token = first.adminToken;
    await first.stop();
    const second = await startService({ kind, shareWith: first });
    try {
      expect(second.info.orgId).toBe(first.info.orgId);
      expect(second.info.adminIdentityId).toBe(first.info.adminIdentityId);
      expect(second.info.bootstrapToken).toBeNull();
      expect(second.adminToken).toBe(token);
      expect(second.logs()).not.toContain("admin token file");
      const res = await second.endpoint("identities.get", { params: { identityId: second.info.adminIdentityId } });
      expect(res.status).toBe(200);
    } finally {
      await second.close();
      await first.close(); // drops the database and the data dir
    }
  });

  it("the admin-token script replaces the token file with a fresh working token", async () => {
    const svc = await startService({ kind });
    try {
      const before = svc.adminToken;
      const file = await writeFreshAdminToken({ ...svc.config, logLevel: "silent" });
      const fresh = fs.readFileSync(file, "utf8");
      expect(fresh).not.toBe(before);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const res = await svc.endpoint(
        "identities.get",
        { params: { identityId: svc.info.adminIdentityId } },
        { token: fresh },
      );
      expect(res.status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it("creates a missing data dir, and leaves the database empty when the token file cannot be written", async () => {
    // The root key comes from the environment, so nothing else creates the data dir first.
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-bootstrap-"));
    const pgDb = kind === "postgres" ? await createPgDatabase() : undefined;
    const dataDir = path.join(parent, "nested", "data");
    const config = loadConfig({
      KEYHOLD_DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url,
      KEYHOLD_ROOT_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "silent",
    });
    try {
      // A directory where the token file belongs makes the write fail.
      fs.mkdirSync(path.join(dataDir, "admin-token"), { recursive: true });
      await expect(buildApp({ config })).rejects.toThrow();

      fs.rmSync(path.join(dataDir, "admin-token"), { recursive: true });
      const app = await buildApp({ config });
      try {
        expect(app.keyhold.bootstrapToken).toBeTruthy();
        expect(app.keyhold.bootstrapToken).toBe(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8"));
      } finally {
        await app.close();
      }
    } finally {
      await pgDb?.drop();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("root key file", () => {
  it("is created with mode 0600 when KEYHOLD_ROOT_KEY is unset", async () => {
    const svc = await startService({ kind: "sqlite" });
    try {
      const keyFile = path.join(svc.config.dataDir, "root-key");
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(fs.readFileSync(keyFile, "utf8"), "base64")).toHaveLength(32);
      expect(fs.statSync(path.join(svc.config.dataDir, "keyhold.db")).mode & 0o777).toBe(0o600);
    } finally {
      await svc.close();
    }
  });
});
