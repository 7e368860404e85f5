import type { Kysely, Transaction, Updateable } from "kysely";
import type { Database } from "../db/schema.ts";
import type {
  IntegrationAuthRow,
  IntegrationAuthTable,
  IntegrationRow,
  IntegrationTable,
  NewIntegration,
  NewIntegrationAuth,
} from "../db/schema-integrations.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** An integration with the environment it reads from. */
export type IntegrationWithEnv = IntegrationRow & { env_name: string; env_slug: string };

export async function insertIntegrationAuth(db: Db, row: NewIntegrationAuth): Promise<void> {
  await db.insertInto("integration_auths").values(row).execute();
}

export async function findIntegrationAuth(db: Db, id: string): Promise<IntegrationAuthRow | undefined> {
  return db.selectFrom("integration_auths").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listIntegrationAuths(db: Db, projectId: string): Promise<IntegrationAuthRow[]> {
  return db
    .selectFrom("integration_auths")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function updateIntegrationAuthRow(
  db: Db,
  id: string,
  patch: Updateable<IntegrationAuthTable>,
): Promise<void> {
  await db.updateTable("integration_auths").set(patch).where("id", "=", id).execute();
}

/** Deletes the auth; its integrations go with it (foreign key cascade). */
export async function deleteIntegrationAuthRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("integration_auths").where("id", "=", id).execute();
}

export async function insertIntegration(db: Db, row: NewIntegration): Promise<void> {
  await db.insertInto("integrations").values(row).execute();
}

function integrationsWithEnv(db: Db) {
  return db
    .selectFrom("integrations as i")
    .innerJoin("project_environments as e", "e.id", "i.env_id")
    .selectAll("i")
    .select(["e.name as env_name", "e.slug as env_slug"]);
}

export async function findIntegration(db: Db, id: string): Promise<IntegrationWithEnv | undefined> {
  return integrationsWithEnv(db).where("i.id", "=", id).executeTakeFirst();
}

export async function listIntegrations(db: Db, projectId: string): Promise<IntegrationWithEnv[]> {
  return integrationsWithEnv(db)
    .where("i.project_id", "=", projectId)
    .orderBy("i.created_at")
    .orderBy("i.id")
    .execute();
}

export async function updateIntegrationRow(db: Db, id: string, patch: Updateable<IntegrationTable>): Promise<void> {
  await db.updateTable("integrations").set(patch).where("id", "=", id).execute();
}

export async function deleteIntegrationRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("integrations").where("id", "=", id).execute();
}
