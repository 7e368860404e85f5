import type { Kysely, Updateable } from "kysely";
import type {
  Database,
  IdentityProjectPrivilegeRow,
  IdentityProjectPrivilegeTable,
  NewIdentityProjectPrivilege,
} from "../db/schema.ts";

/** A privilege with the membership it hangs on: which identity, which project, which org. */
export type PrivilegeWithOwner = IdentityProjectPrivilegeRow & {
  identity_id: string | null;
  project_id: string;
  org_id: string;
};

function withOwner(db: Kysely<Database>) {
  return db
    .selectFrom("identity_project_privileges as p")
    .innerJoin("project_memberships as m", "m.id", "p.project_membership_id")
    .innerJoin("projects as pr", "pr.id", "m.project_id")
    .selectAll("p")
    .select(["m.project_id", "m.identity_id", "pr.org_id"]);
}

export async function findPrivilegeById(db: Kysely<Database>, id: string): Promise<PrivilegeWithOwner | undefined> {
  return withOwner(db).where("p.id", "=", id).executeTakeFirst();
}

export async function findPrivilegeBySlug(
  db: Kysely<Database>,
  membershipId: string,
  slug: string,
): Promise<PrivilegeWithOwner | undefined> {
  return withOwner(db)
    .where("p.project_membership_id", "=", membershipId)
    .where("p.slug", "=", slug)
    .executeTakeFirst();
}

export async function listPrivileges(db: Kysely<Database>, membershipId: string): Promise<PrivilegeWithOwner[]> {
  return withOwner(db)
    .where("p.project_membership_id", "=", membershipId)
    .orderBy("p.created_at")
    .orderBy("p.id")
    .execute();
}

/** Inserts unless the membership already has a privilege of that slug; false when it has. */
export async function insertPrivilege(db: Kysely<Database>, row: NewIdentityProjectPrivilege): Promise<boolean> {
  const result = await db
    .insertInto("identity_project_privileges")
    .values(row)
    .onConflict((oc) => oc.columns(["project_membership_id", "slug"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function updatePrivilege(
  db: Kysely<Database>,
  id: string,
  patch: Updateable<IdentityProjectPrivilegeTable>,
): Promise<void> {
  await db.updateTable("identity_project_privileges").set(patch).where("id", "=", id).execute();
}

export async function deletePrivilege(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("identity_project_privileges").where("id", "=", id).execute();
}
