import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { endpoints } from "@keyhold/contract";
import { afterEach, beforeEach, expect, it } from "vitest";
import { repoRoot } from "../config.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createSecret } from "../test/secret-fixtures.ts";
import { contentHash, contentOf } from "./chain.ts";

/**
 * Tampering with stored events, as someone with database access but without the root key would:
 * the verification endpoint and the `audit:verify` command both find the first broken link.
 */

const run = promisify(execFile);

describeEachDatabase("audit chain verification", (kind) => {
  let svc: TestService;
  /** org_seq of the create-secret event of SECRET_<n>. */
  let seqOf: (n: number) => Promise<number>;

  beforeEach(async () => {
    svc = await startService({ kind });
    const project = await createProject(svc);
    const place = { workspaceId: project.id, environment: "dev", secretPath: "/" };
    for (let n = 1; n <= 5; n++) await createSecret(svc, place, `SECRET_${n}`);
    seqOf = async (n) =>
      Number(
        (
          await svc.app.db
            .selectFrom("audit_events")
            .select("org_seq")
            .where("secret_key", "=", `SECRET_${n}`)
            .where("event_type", "=", "create-secret")
            .executeTakeFirstOrThrow()
        ).org_seq,
      );
  });
  afterEach(() => svc?.close());

  const verify = async (token?: string | null) => {
    const res = await svc.endpoint("auditLogs.verify", {}, token === undefined ? {} : { token });
    return { status: res.status, body: res.body };
  };
  const verification = async () => {
    const res = await verify();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return endpoints["auditLogs.verify"].response.parse(res.body).verification;
  };
  const eventAt = (seq: number) =>
    svc.app.db.selectFrom("audit_events").selectAll().where("org_seq", "=", seq).executeTakeFirstOrThrow();

  /** The command as an operator runs it, with the service's configuration. */
  async function command(): Promise<{ code: number; out: string }> {
    const env = {
      PATH: process.env.PATH,
      KEYHOLD_DATA_DIR: svc.config.dataDir,
      ...(svc.config.databaseUrl && { DATABASE_URL: svc.config.databaseUrl }),
    };
    const args = [
      "--conditions=@keyhold/source",
      "--import",
      "tsx",
      path.join(repoRoot, "service/src/cli/audit-verify.ts"),
    ];
    try {
      const { stdout } = await run(process.execPath, args, { cwd: repoRoot, env });
      return { code: 0, out: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, out: failed.stdout + failed.stderr };
    }
  }

  it("holds for untouched events, on the endpoint and in the command", async () => {
    const result = await verification();
    expect(result).toMatchObject({ orgId: svc.info.orgId, ok: true, checkpoint: null, firstBroken: null });
    expect(result.checkedEvents).toBe(result.lastSeq);
    expect(result.checkedEvents).toBeGreaterThanOrEqual(5);
    const { code, out } = await command();
    expect(code).toBe(0);
    expect(out).toContain(`organisation ${svc.info.orgId}: the chain holds (${result.checkedEvents} events checked`);
  });

  it("fails at an event whose content was edited", async () => {
    const seq = await seqOf(3);
    const event = await eventAt(seq);
    await svc.app.db
      .updateTable("audit_events")
      .set({ secret_key: "SOMETHING_ELSE" })
      .where("id", "=", event.id)
      .execute();
    const result = await verification();
    expect(result.ok).toBe(false);
    expect(result.firstBroken).toMatchObject({ seq, eventId: event.id, reason: expect.stringContaining("edited") });
    const { code, out } = await command();
    expect(code).toBe(1);
    expect(out).toContain(`BROKEN at sequence ${seq} (event ${event.id})`);
  });

  it("fails at an event whose hashes were rebuilt without the key", async () => {
    const seq = await seqOf(2);
    const event = await eventAt(seq);
    // Editing the content and recomputing its plain SHA-256 is not enough: the link is keyed.
    const edited = { ...event, actor_id: "someone-else" };
    await svc.app.db
      .updateTable("audit_events")
      .set({ actor_id: "someone-else", content_hash: contentHash(contentOf(edited)) })
      .where("id", "=", event.id)
      .execute();
    expect((await verification()).firstBroken).toMatchObject({ seq, eventId: event.id });
  });

  it("fails at a deleted event", async () => {
    const seq = await seqOf(4);
    await svc.app.db.deleteFrom("audit_events").where("org_seq", "=", seq).execute();
    const result = await verification();
    expect(result.firstBroken).toMatchObject({ seq, eventId: null, reason: expect.stringContaining("missing") });
    const { code, out } = await command();
    expect(code).toBe(1);
    expect(out).toContain(`BROKEN at sequence ${seq}: event ${seq} is missing`);
  });

  it("fails when the last events were deleted", async () => {
    const last = (await verification()).lastSeq;
    await svc.app.db
      .deleteFrom("audit_events")
      .where("org_seq", ">=", last - 1)
      .execute();
    expect((await verification()).firstBroken).toMatchObject({ seq: last - 1, eventId: null });
  });

  it("fails at the first of two swapped events", async () => {
    const [a, b] = [await seqOf(2), await seqOf(4)];
    const first = await eventAt(a);
    await svc.app.db.updateTable("audit_events").set({ org_seq: -1 }).where("org_seq", "=", a).execute();
    await svc.app.db.updateTable("audit_events").set({ org_seq: a }).where("org_seq", "=", b).execute();
    await svc.app.db.updateTable("audit_events").set({ org_seq: b }).where("org_seq", "=", -1).execute();
    const second = await eventAt(a);
    expect(second.id).not.toBe(first.id);
    expect((await verification()).firstBroken).toMatchObject({ seq: a, eventId: second.id });
    const { code, out } = await command();
    expect(code).toBe(1);
    expect(out).toContain(`BROKEN at sequence ${a} (event ${second.id})`);
  });

  it("fails at an event made into a tombstone by hand", async () => {
    const seq = await seqOf(1);
    const event = await eventAt(seq);
    await svc.app.db
      .updateTable("audit_events")
      .set({ pruned: 1, event_metadata: null, secret_key: null })
      .where("id", "=", event.id)
      .execute();
    expect((await verification()).firstBroken).toMatchObject({
      seq,
      eventId: event.id,
      reason: expect.stringContaining("tombstone"),
    });
  });

  it("is for the organisation's admins only", async () => {
    const member = await identityWithToken(svc, { name: "auditor", role: "member" });
    expect((await verify(member.token)).status).toBe(403);
    expect((await verify(null)).status).toBe(401);
  });

  it("still holds after new events follow a verification", async () => {
    const before = await verification();
    const project = await createProject(svc);
    await createSecret(svc, { workspaceId: project.id, environment: "dev", secretPath: "/" }, "LATER");
    const after = await verification();
    expect(after.ok).toBe(true);
    expect(after.lastSeq).toBeGreaterThan(before.lastSeq);
  });
});
