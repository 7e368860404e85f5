import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database, IdentityRow, MembershipRow, MetadataRow } from "../db/schema.ts";
import { preparedQuery } from "../db/prepared.ts";
import { authMethodFlags, authMethodsOf } from "./auth-methods.ts";

export interface MembershipWithIdentity {
  membership: MembershipRow;
  identity: IdentityRow;
  /** The auth methods attached to the identity, as the wire names them. */
  authMethods: string[];
}

export interface MetadataInput {
  key: string;
  value: string;
}

export async function insertIdentity(
  db: Kysely<Database>,
  input: { id: string; orgId: string; name: string; hasDeleteProtection: boolean; role: string },
  now: string,
): Promise<void> {
  await db
    .insertInto("identities")
    .values({
      id: input.id,
      org_id: input.orgId,
      name: input.name,
      has_delete_protection: input.hasDeleteProtection ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto("identity_org_memberships")
    .values({
      id: randomUUID(),
      identity_id: input.id,
      org_id: input.orgId,
      role: input.role,
      role_id: null,
      last_login_auth_method: null,
      last_login_time: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

function membershipRows(db: Kysely<Database>) {
  return db
    .selectFrom("identity_org_memberships as m")
    .innerJoin("identities as i", "i.id", "m.identity_id")
    .selectAll("m")
    .select([
      "i.id as i_id",
      "i.org_id as i_org_id",
      "i.name as i_name",
      "i.has_delete_protection as i_has_delete_protection",
      "i.created_at as i_created_at",
      "i.updated_at as i_updated_at",
    ])
    .select(authMethodFlags);
}

function membershipQuery(db: Kysely<Database>, orgId: string) {
  return membershipRows(db).where("m.org_id", "=", orgId);
}

type JoinedRow = MembershipRow & {
  i_id: string;
  i_org_id: string;
  i_name: string;
  i_has_delete_protection: number;
  i_created_at: Date | string;
  i_updated_at: Date | string;
  auth_methods: number | null;
};

function split(row: JoinedRow): MembershipWithIdentity {
  return {
    membership: {
      id: row.id,
      identity_id: row.identity_id,
      org_id: row.org_id,
      role: row.role,
      role_id: row.role_id,
      last_login_auth_method: row.last_login_auth_method,
      last_login_time: row.last_login_time,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    authMethods: authMethodsOf(row),
    identity: {
      id: row.i_id,
      org_id: row.i_org_id,
      name: row.i_name,
      has_delete_protection: row.i_has_delete_protection,
      created_at: row.i_created_at,
      updated_at: row.i_updated_at,
    },
  };
}

const membershipInOrg = preparedQuery(["orgId", "identityId"], (db, { orgId, identityId }) =>
  membershipQuery(db, orgId).where("m.identity_id", "=", identityId),
);

/** The identity's membership in the org, or undefined when it is not a member of that org. */
export async function findMembership(
  db: Kysely<Database>,
  orgId: string,
  identityId: string,
): Promise<MembershipWithIdentity | undefined> {
  const [row] = await membershipInOrg(db, { orgId, identityId });
  return row && split(row);
}

/** A metadata entry, as the identity views show it. */
export type MetadataItem = Pick<MetadataRow, "id" | "key" | "value">;

/** The membership joined with its metadata: one row per entry, in order (one row, without entries, when there is none). */
const membershipWithMetadataInOrg = preparedQuery(["orgId", "identityId"], (db, { orgId, identityId }) =>
  membershipQuery(db, orgId)
    .leftJoin("identity_metadata as md", (join) =>
      join.onRef("md.identity_id", "=", "m.identity_id").onRef("md.org_id", "=", "m.org_id"),
    )
    .select(["md.id as md_id", "md.key as md_key", "md.value as md_value"])
    .where("m.identity_id", "=", identityId)
    .orderBy("md.position"),
);

/**
 * The identity's membership in the org with its metadata in order, in one statement (the detail
 * views need both, and a second query costs more than the join); undefined when it is not a member.
 */
export async function findMembershipWithMetadata(
  db: Kysely<Database>,
  orgId: string,
  identityId: string,
): Promise<(MembershipWithIdentity & { metadata: MetadataItem[] }) | undefined> {
  const rows = await membershipWithMetadataInOrg(db, { orgId, identityId });
  const [first] = rows;
  if (!first) return undefined;
  const metadata: MetadataItem[] = [];
  for (const { md_id, md_key, md_value } of rows) {
    if (md_id !== null && md_key !== null && md_value !== null)
      metadata.push({ id: md_id, key: md_key, value: md_value });
  }
  return { ...split(first), metadata };
}

/** How a page of an organisation's identities is chosen; every field optional. */
export interface MembershipPage {
  /** Part of the name, any case. */
  nameContains?: string | undefined;
  /** The exact name. */
  nameIn?: readonly string[] | undefined;
  /** Org role slugs, any of which matches. */
  roleIn?: readonly string[] | undefined;
  orderBy?: "name" | "role" | undefined;
  orderDirection?: "asc" | "desc" | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** LIKE's wildcards, escaped, so a search for "50%" finds the text "50%". */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A page of the organisation's identities, and how many match in all. */
export async function listMemberships(
  db: Kysely<Database>,
  orgId: string,
  page: MembershipPage = {},
): Promise<{ memberships: MembershipWithIdentity[]; totalCount: number }> {
  let query = membershipQuery(db, orgId);
  if (page.nameContains) {
    query = query.where(sql<boolean>`lower(i.name) like ${likeContains(page.nameContains)} escape '\\'`);
  }
  if (page.nameIn)
    query = page.nameIn.length ? query.where("i.name", "in", page.nameIn) : query.where(sql<boolean>`1 = 0`);
  if (page.roleIn)
    query = page.roleIn.length ? query.where("m.role", "in", page.roleIn) : query.where(sql<boolean>`1 = 0`);
  const direction = page.orderDirection ?? "asc";
  const [rows, count] = await Promise.all([
    query
      .orderBy(page.orderBy === "role" ? "m.role" : "i.name", direction)
      .orderBy("i.name", direction)
      .orderBy("i.id")
      .$if(page.limit !== undefined, (q) => q.limit(page.limit ?? 0))
      .$if(page.offset !== undefined && page.offset > 0, (q) => q.offset(page.offset ?? 0))
      .execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  return { memberships: rows.map(split), totalCount: Number(count.count) };
}

export async function updateIdentityRow(
  db: Kysely<Database>,
  identityId: string,
  patch: { name?: string | undefined; hasDeleteProtection?: boolean | undefined },
  now: string,
): Promise<void> {
  await db
    .updateTable("identities")
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.hasDeleteProtection !== undefined && { has_delete_protection: patch.hasDeleteProtection ? 1 : 0 }),
      updated_at: now,
    })
    .where("id", "=", identityId)
    .execute();
}

export async function updateMembershipRole(
  db: Kysely<Database>,
  membershipId: string,
  role: string,
  now: string,
): Promise<void> {
  await db
    .updateTable("identity_org_memberships")
    .set({ role, role_id: null, updated_at: now })
    .where("id", "=", membershipId)
    .execute();
}

export async function recordLogin(db: Kysely<Database>, membershipId: string, authMethod: string, now: string) {
  await db
    .updateTable("identity_org_memberships")
    .set({ last_login_auth_method: authMethod, last_login_time: now })
    .where("id", "=", membershipId)
    .execute();
}

/** The id of the identity's membership in its own organisation, if it has one. */
export async function findHomeMembershipId(db: Kysely<Database>, identityId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("identities as i")
    .innerJoin("identity_org_memberships as m", (join) =>
      join.onRef("m.identity_id", "=", "i.id").onRef("m.org_id", "=", "i.org_id"),
    )
    .select("m.id")
    .where("i.id", "=", identityId)
    .executeTakeFirst();
  return row?.id;
}

/** Deleting the identity row cascades to memberships, metadata, auth methods and tokens. */
export async function deleteIdentityRow(db: Kysely<Database>, identityId: string): Promise<void> {
  await db.deleteFrom("identities").where("id", "=", identityId).execute();
}

/** Replaces all metadata of an identity in an org (delete, then insert); an empty list clears it. */
export async function replaceMetadata(
  db: Kysely<Database>,
  orgId: string,
  identityId: string,
  items: readonly MetadataInput[],
  now: string,
): Promise<void> {
  await db.deleteFrom("identity_metadata").where("org_id", "=", orgId).where("identity_id", "=", identityId).execute();
  if (items.length === 0) return;
  await db
    .insertInto("identity_metadata")
    .values(
      items.map((item, position) => ({
        id: randomUUID(),
        identity_id: identityId,
        org_id: orgId,
        key: item.key,
        value: item.value,
        position,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}
