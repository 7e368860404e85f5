import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

const INSTANCE_ID = "default";

export interface InstanceRecord {
  orgId: string;
  adminIdentityId: string;
}

export async function findInstance(db: Kysely<Database>): Promise<InstanceRecord | undefined> {
  const row = await db
    .selectFrom("instance")
    .select(["org_id", "admin_identity_id"])
    .where("id", "=", INSTANCE_ID)
    .executeTakeFirst();
  return row && { orgId: row.org_id, adminIdentityId: row.admin_identity_id };
}

export async function insertInstance(db: Kysely<Database>, record: InstanceRecord, now: string): Promise<void> {
  await db
    .insertInto("instance")
    .values({ id: INSTANCE_ID, org_id: record.orgId, admin_identity_id: record.adminIdentityId, created_at: now })
    .execute();
}

export async function insertOrganization(
  db: Kysely<Database>,
  org: { id: string; name: string; slug: string },
  now: string,
): Promise<void> {
  await db
    .insertInto("organizations")
    .values({ ...org, created_at: now, updated_at: now })
    .execute();
}
