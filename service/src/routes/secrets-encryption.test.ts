import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataFiles } from "../config.ts";
import {
  CiphertextError,
  createProjectKeys,
  decryptField,
  encryptField,
  fieldBinding,
} from "../domain/secret-crypto.ts";
import { createSealer } from "../lib/sealing.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";

describe("secret field encryption", () => {
  const key = randomBytes(32);
  it("opens only with the binding it was sealed with", () => {
    const sealed = encryptField(key, "plain text", fieldBinding("secrets", "row-1", "value_ciphertext"));
    expect(decryptField(key, sealed, fieldBinding("secrets", "row-1", "value_ciphertext"))).toBe("plain text");
    expect(() => decryptField(key, sealed, fieldBinding("secrets", "row-2", "value_ciphertext"))).toThrow(
      CiphertextError,
    );
    expect(() => decryptField(key, sealed, fieldBinding("secrets", "row-1", "comment_ciphertext"))).toThrow(
      CiphertextError,
    );
    expect(() => decryptField(randomBytes(32), sealed, fieldBinding("secrets", "row-1", "value_ciphertext"))).toThrow(
      CiphertextError,
    );
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect(() => decryptField(key, flipped, fieldBinding("secrets", "row-1", "value_ciphertext"))).toThrow(
      CiphertextError,
    );
  });

  it("never writes the same ciphertext twice for one plaintext", () => {
    const binding = fieldBinding("secrets", "row-1", "value_ciphertext");
    expect(encryptField(key, "same", binding).equals(encryptField(key, "same", binding))).toBe(false);
  });
});

describeEachDatabase("secrets at rest", (kind) => {
  let svc: TestService;
  let place: Place;
  // Distinctive texts that must not be found anywhere in storage.
  const marker = `plaintext-marker-${randomBytes(6).toString("hex")}`;
  const value = `${marker}-value`;
  const comment = `${marker}-comment`;
  const newer = `${marker}-newer-value`;

  beforeAll(async () => {
    svc = await startService({ kind });
    place = { workspaceId: (await createProject(svc)).id, environment: "dev", secretPath: "/" };
    await createSecret(svc, place, "AT_REST", { secretValue: value, secretComment: comment });
    const updated = await svc.endpoint("secrets.update", {
      params: { secretName: "AT_REST" },
      body: { ...place, secretValue: newer, secretComment: `${comment}-2` },
    });
    expect(updated.status).toBe(200);
    await createSecret(svc, place, "OTHER_ROW", { secretValue: "other value" });
  });
  afterAll(async () => svc?.close());

  const forms = (text: string) => [Buffer.from(text, "utf8"), Buffer.from(Buffer.from(text).toString("hex"))];

  it("the service still reads what it wrote", async () => {
    const res = await svc.endpoint("secrets.get", { params: { secretName: "AT_REST" }, query: place });
    expect(endpoints["secrets.get"].response.parse(res.body).secret).toMatchObject({
      secretValue: newer,
      secretComment: `${comment}-2`,
    });
    expect(svc.logs()).not.toContain(marker);
  });

  if (kind === "sqlite") {
    it("no plaintext in the SQLite file or its write-ahead log", () => {
      const file = dataFiles(svc.config).sqlite;
      const stored = [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
      expect(stored.length).toBeGreaterThan(0);
      const all = Buffer.concat(stored);
      // The check can fail: the key names are stored in plain text.
      expect(all.includes(Buffer.from("AT_REST"))).toBe(true);
      for (const form of forms(marker)) expect(all.includes(form)).toBe(false);
    });
  } else {
    it("no plaintext in any PostgreSQL table", async () => {
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(svc.app.db);
      expect(tables.rows.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(["secrets", "secret_versions", "project_data_keys"]),
      );
      let dumped = "";
      for (const { table_name } of tables.rows) {
        const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(
          svc.app.db,
        );
        dumped += rows.rows.map((r) => r.row).join("\n");
      }
      expect(dumped).toContain("AT_REST");
      for (const form of forms(marker)) expect(dumped.includes(form.toString("utf8"))).toBe(false);
    });
  }

  it("each project's data key is made once, unwrapped once and kept in a bounded cache", async () => {
    const sealer = createSealer(randomBytes(32), "project-data-keys-test");
    let opened = 0;
    const counting = {
      seal: sealer.seal,
      open: (sealed: string, boundTo: string) => (opened++, sealer.open(sealed, boundTo)),
    };
    const keys = createProjectKeys({ db: svc.app.db, sealer: counting, cacheSize: 1 });
    const a = (await createProject(svc)).id;
    const b = (await createProject(svc)).id;
    const first = await keys.keyFor(a);
    expect(first).toHaveLength(32);
    expect((await keys.keyFor(a)).equals(first)).toBe(true);
    expect(opened).toBe(1);
    const other = await keys.keyFor(b);
    expect(other.equals(first)).toBe(false);
    // The cache holds one key: a's is unwrapped again, and is the same key.
    expect((await keys.keyFor(a)).equals(first)).toBe(true);
    expect(opened).toBe(3);
    // A wrapped key copied to another project does not open there.
    const row = await svc.app.db
      .selectFrom("project_data_keys")
      .select("wrapped_key")
      .where("project_id", "=", a)
      .executeTakeFirstOrThrow();
    await svc.app.db
      .updateTable("project_data_keys")
      .set({ wrapped_key: row.wrapped_key })
      .where("project_id", "=", b)
      .execute();
    keys.clear();
    await expect(keys.keyFor(b)).rejects.toThrow();
  });

  it("a ciphertext copied to another row does not open there: a clean error, never the other secret's value", async () => {
    const db = svc.app.db;
    const source = await db.selectFrom("secrets").selectAll().where("key", "=", "AT_REST").executeTakeFirstOrThrow();
    await db
      .updateTable("secrets")
      .set({ value_ciphertext: source.value_ciphertext })
      .where("key", "=", "OTHER_ROW")
      .execute();
    const res = await svc.endpoint("secrets.get", { params: { secretName: "OTHER_ROW" }, query: place });
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain(marker);
    expect(res.body).toMatchObject({ message: "Something went wrong" });
    // Moved into the comment column of its own row, it does not open either.
    await db
      .updateTable("secrets")
      .set({ comment_ciphertext: source.value_ciphertext })
      .where("key", "=", "AT_REST")
      .execute();
    const own = await svc.endpoint("secrets.get", { params: { secretName: "AT_REST" }, query: place });
    expect(own.status).toBe(500);
    expect(JSON.stringify(own.body)).not.toContain(marker);
  });

  it("a list reads an empty comment from its length, but every value is opened, an empty one too", async () => {
    const db = svc.app.db;
    await createSecret(svc, place, "EMPTY_VALUE", { secretValue: "" });
    await createSecret(svc, place, "SHOWN", { secretValue: "shown value", secretComment: "" });
    const list = async () =>
      svc.endpoint("secrets.list", { query: { workspaceId: place.workspaceId, environment: "dev", secretPath: "/" } });
    // A list of these two only (the rows tampered with above are moved away first).
    await db.deleteFrom("secrets").where("key", "in", ["AT_REST", "OTHER_ROW"]).execute();
    const before = await list();
    expect(before.status).toBe(200);
    expect(endpoints["secrets.list"].response.parse(before.body).secrets).toMatchObject([
      { secretKey: "EMPTY_VALUE", secretValue: "", secretComment: "" },
      { secretKey: "SHOWN", secretValue: "shown value", secretComment: "" },
    ]);
    // The empty value of one row, moved into another row's value column, does not open there.
    const empty = await db
      .selectFrom("secrets")
      .select("value_ciphertext")
      .where("key", "=", "EMPTY_VALUE")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("secrets")
      .set({ value_ciphertext: empty.value_ciphertext })
      .where("key", "=", "SHOWN")
      .execute();
    const after = await list();
    expect(after.status).toBe(500);
    expect(JSON.stringify(after.body)).not.toContain("shown value");
  });
});
