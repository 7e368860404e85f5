import { endpoints } from "@keyhold/contract";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadRootKey } from "../lib/root-key.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";
import { deriveChainKeys } from "./chain.ts";
import { expiresAt, pruneAuditEvents } from "./retention.ts";

/**
 * Retention: events past their project's (else their organisation's) retention become signed
 * tombstones, the prefix of tombstones becomes a signed checkpoint, and the chain still verifies;
 * a forged checkpoint does not.
 */

const DAY = 86_400_000;

describeEachDatabase("audit retention", (kind) => {
  let svc: TestService;
  let short: Place;
  let long: Place;

  beforeEach(async () => {
    svc = await startService({ kind });
    const a = await createProject(svc, { projectName: "Short" });
    const b = await createProject(svc, { projectName: "Long" });
    short = { workspaceId: a.id, environment: "dev", secretPath: "/" };
    long = { workspaceId: b.id, environment: "dev", secretPath: "/" };
    // Short keeps events 7 days, Long 30; the organisation's default (5 here) covers the rest.
    await svc.app.db.updateTable("projects").set({ audit_logs_retention_days: 7 }).where("id", "=", a.id).execute();
    await svc.app.db.updateTable("projects").set({ audit_logs_retention_days: 30 }).where("id", "=", b.id).execute();
    await setOrgRetention(5);
  });
  afterEach(() => svc?.close());

  const setOrgRetention = (days: number) =>
    svc.app.db
      .updateTable("organizations")
      .set({ audit_logs_retention_days: days })
      .where("id", "=", svc.info.orgId)
      .execute();
  const prune = (daysFromNow: number) =>
    pruneAuditEvents(
      { db: svc.app.db, keys: deriveChainKeys(loadRootKey(svc.config)) },
      new Date(Date.now() + daysFromNow * DAY),
    );
  const verification = async () => {
    const res = await svc.endpoint("auditLogs.verify");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return endpoints["auditLogs.verify"].response.parse(res.body).verification;
  };
  const events = () =>
    svc.app.db.selectFrom("audit_events").selectAll().where("org_id", "=", svc.info.orgId).orderBy("org_seq").execute();

  it("tombstones what expired, folds the leading tombstones into a checkpoint, and the chain holds", async () => {
    await createSecret(svc, short, "S1");
    await createSecret(svc, short, "S2");
    await createSecret(svc, long, "L1");
    await createSecret(svc, short, "S3");
    const before = await events();
    const seq = (key: string) => Number(before.find((e) => e.secret_key === key)?.org_seq);

    // Long's events (its creation, L1) are kept 30 days; the others (Short's creation too) 7.
    const kept = before.filter((e) => e.project_id === long.workspaceId);
    const firstKept = Number(kept[0]?.org_seq);

    expect(await prune(1)).toEqual({ tombstoned: 0, compacted: 0 });
    const outcome = await prune(8);
    // Everything but Long's events expired; what came before Long's first event became the checkpoint.
    expect(outcome.tombstoned).toBe(before.length - kept.length);
    expect(outcome.compacted).toBe(firstKept - 1);
    const after = await events();
    expect(after.map((e) => [Number(e.org_seq), e.pruned, e.secret_key])).toEqual(
      before
        .filter((e) => Number(e.org_seq) >= firstKept)
        .map((e) =>
          e.project_id === long.workspaceId ? [Number(e.org_seq), 0, e.secret_key] : [Number(e.org_seq), 1, null],
        ),
    );
    const tombstone = after.find((e) => Number(e.org_seq) === seq("S3"));
    expect(tombstone).toMatchObject({ project_id: null, actor_id: null, event_type: null, request_id: null });
    expect(tombstone?.hash).toBe(before.find((e) => e.secret_key === "S3")?.hash);

    const result = await verification();
    expect(result).toMatchObject({ ok: true, checkpoint: { seq: firstKept - 1 }, checkedEvents: after.length });

    // A pass later prunes the rest; the chain then starts and ends at its checkpoint, and goes on.
    await prune(31);
    expect(await events()).toEqual([]);
    const last = before.length;
    expect(await verification()).toMatchObject({ ok: true, checkedEvents: 0, checkpoint: { seq: last } });
    await createSecret(svc, long, "L2");
    expect(await verification()).toMatchObject({ ok: true, checkedEvents: 1, lastSeq: last + 1 });
  });

  it("keeps events of projects without a retention of their own for the organisation's", async () => {
    await setOrgRetention(90);
    const plain = await createProject(svc, { projectName: "Plain" });
    await createSecret(svc, { workspaceId: plain.id, environment: "dev", secretPath: "/" }, "P1");
    await prune(89);
    expect((await events()).map((e) => e.secret_key)).toContain("P1");
    await setOrgRetention(10);
    await prune(11);
    expect((await events()).map((e) => e.secret_key)).not.toContain("P1");
    expect((await verification()).ok).toBe(true);
  });

  it("fails verification when the checkpoint is edited", async () => {
    await createSecret(svc, short, "S1");
    await createSecret(svc, long, "L1");
    await prune(8);
    const head = await svc.app.db
      .selectFrom("audit_chain_heads")
      .selectAll()
      .where("org_id", "=", svc.info.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(head.checkpoint_seq)).toBeGreaterThan(0);
    // Moving the checkpoint past a kept event (hiding it) breaks its signature.
    await svc.app.db
      .updateTable("audit_chain_heads")
      .set({ checkpoint_seq: Number(head.checkpoint_seq) + 1 })
      .where("org_id", "=", svc.info.orgId)
      .execute();
    expect((await verification()).firstBroken).toMatchObject({
      seq: Number(head.checkpoint_seq) + 1,
      reason: expect.stringContaining("checkpoint"),
    });
  });

  it("signs no checkpoint over a chain that does not hold", async () => {
    await createSecret(svc, short, "S1");
    await createSecret(svc, short, "S2");
    await createSecret(svc, long, "L1");
    // The organisation's first event: no part of the chain before it holds to be signed.
    const first = (await events())[0];
    await svc.app.db
      .updateTable("audit_events")
      .set({ hash: "0".repeat(64) })
      .where("id", "=", first?.id ?? "")
      .execute();
    await prune(8);
    const head = await svc.app.db
      .selectFrom("audit_chain_heads")
      .select("checkpoint_seq")
      .where("org_id", "=", svc.info.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(head.checkpoint_seq)).toBe(0);
    expect((await verification()).firstBroken).toMatchObject({ seq: Number(first?.org_seq) });
  });

  it("runs on the service's schedule too", async () => {
    await createSecret(svc, short, "S1");
    await svc.app.db
      .updateTable("projects")
      .set({ audit_logs_retention_days: 0 })
      .where("id", "=", short.workspaceId)
      .execute();
    await svc.app.pruneAuditLog();
    expect((await events()).map((e) => e.secret_key)).not.toContain("S1");
  });
});

it("tells when an event expires under the retention in force", () => {
  expect(expiresAt("2026-11-24T23:19:37.231Z", 30)).toBe("2026-12-24T23:19:37.231Z");
  expect(expiresAt(new Date("2026-01-31T00:00:00.000Z"), 1)).toBe("2026-02-01T00:00:00.000Z");
});
