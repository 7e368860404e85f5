import type { Kysely, Transaction } from "kysely";
import type { Database, ProjectEnvironmentRow } from "../db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export interface NewEnvironment {
  id: string;
  projectId: string;
  name: string;
  slug: string;
  position: number;
  now: string;
}

export async function insertEnvironments(db: Db, envs: readonly NewEnvironment[]): Promise<void> {
  if (envs.length === 0) return;
  await db
    .insertInto("project_environments")
    .values(
      envs.map((e) => ({
        id: e.id,
        project_id: e.projectId,
        name: e.name,
        slug: e.slug,
        position: e.position,
        created_at: e.now,
        updated_at: e.now,
      })),
    )
    .execute();
}

/** The environments of each project, in position order. */
export async function listEnvironments(db: Db, projectIds: readonly string[]): Promise<ProjectEnvironmentRow[]> {
  if (projectIds.length === 0) return [];
  return db
    .selectFrom("project_environments")
    .selectAll()
    .where("project_id", "in", projectIds)
    .orderBy("position")
    .orderBy("created_at")
    .execute();
}

export async function findEnvironment(
  db: Db,
  projectId: string,
  environmentId: string,
): Promise<ProjectEnvironmentRow | undefined> {
  return db
    .selectFrom("project_environments")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "=", environmentId)
    .executeTakeFirst();
}

export async function environmentSlugTaken(
  db: Db,
  projectId: string,
  slug: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom("project_environments")
    .select("id")
    .where("project_id", "=", projectId)
    .where("slug", "=", slug);
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Moves every environment at or after `from` one place (+1 or -1), to open or close a gap. */
export async function shiftPositions(
  db: Db,
  projectId: string,
  from: number,
  by: 1 | -1,
  now: string,
  upTo?: number,
): Promise<void> {
  let query = db
    .updateTable("project_environments")
    .set((eb) => ({ position: eb("position", "+", by), updated_at: now }))
    .where("project_id", "=", projectId)
    .where("position", ">=", from);
  if (upTo !== undefined) query = query.where("position", "<=", upTo);
  await query.execute();
}

export async function updateEnvironmentRow(
  db: Db,
  environmentId: string,
  patch: { name?: string; slug?: string; position?: number; updated_at: string },
): Promise<void> {
  await db.updateTable("project_environments").set(patch).where("id", "=", environmentId).execute();
}

export async function deleteEnvironmentRow(db: Db, environmentId: string): Promise<void> {
  await db.deleteFrom("project_environments").where("id", "=", environmentId).execute();
}

export async function maxPosition(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("project_environments")
    .select((eb) => eb.fn.max("position").as("max"))
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}
