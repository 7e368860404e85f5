import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** How many days an organisation keeps the events of projects without their own setting. */
export async function orgRetentionDays(db: Kysely<Database>, orgId: string): Promise<number> {
  const row = await db
    .selectFrom("organizations")
    .select("audit_logs_retention_days")
    .where("id", "=", orgId)
    .executeTakeFirstOrThrow();
  return row.audit_logs_retention_days;
}

export async function setOrgRetentionDays(db: Kysely<Database>, orgId: string, days: number, now: string) {
  await db
    .updateTable("organizations")
    .set({ audit_logs_retention_days: days, updated_at: now })
    .where("id", "=", orgId)
    .execute();
}

/** The retention in force for each of these projects of the organisation, and the organisation's default. */
export async function retentionDays(
  db: Kysely<Database>,
  orgId: string,
  projectIds: readonly string[],
): Promise<{ orgDefault: number; byProject: Map<string, number> }> {
  const [orgDefault, projects] = await Promise.all([
    orgRetentionDays(db, orgId),
    projectIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom("projects")
          .select(["id", "audit_logs_retention_days"])
          .where("org_id", "=", orgId)
          .where("id", "in", [...projectIds])
          .where("audit_logs_retention_days", "is not", null)
          .execute(),
  ]);
  const byProject = new Map<string, number>();
  for (const project of projects) {
    if (project.audit_logs_retention_days !== null) byProject.set(project.id, project.audit_logs_retention_days);
  }
  return { orgDefault, byProject };
}
