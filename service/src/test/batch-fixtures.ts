import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect } from "vitest";
import type { ProjectRule } from "../domain/project-permissions.ts";
import { type DatabaseKind, startService, type TestService } from "./harness.ts";
import { createProject, memberWithRoles } from "./project-fixtures.ts";
import { seedCustomRole } from "./project-seed.ts";
import type { Place } from "./secret-fixtures.ts";

/** A secret as a batch answers it, as far as the tests read it. */
export type BatchAnswer = {
  secretKey: string;
  secretValue: string;
  version: number;
  skipMultilineEncoding?: boolean | null;
  id: string;
  secretComment: string;
};

export type BatchId = "secrets.batchCreate" | "secrets.batchUpdate" | "secrets.batchDelete";

/**
 * A service and a project for the batch suites (started before and closed after the suite), and
 * the reads they assert with: the folder's state through the list endpoint, the project's version
 * rows and one secret's version numbers straight from the database.
 */
export function batchFixture(kind: DatabaseKind) {
  let svc: TestService;
  let projectId: string;
  let roles = 0;
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  const prod = (): Place => ({ workspaceId: projectId, environment: "prod", secretPath: "/" });

  return {
    svc: () => svc,
    projectId: () => projectId,
    prod,

    /** A batch call in prod's root (or wherever `body` says), as the admin unless `token`. */
    batch: (id: BatchId, body: Record<string, unknown>, token?: string) =>
      svc.endpoint(id, { body: { ...prod(), ...body } }, token === undefined ? {} : { token }),

    answers: (body: unknown) => (body as { secrets: BatchAnswer[] }).secrets,

    /** The folder's secrets as key → [value, version], read through the list endpoint. */
    async state(place: Place = prod()): Promise<Record<string, [string, number]>> {
      const res = await svc.endpoint("secrets.list", { query: place });
      expect(res.status).toBe(200);
      const { secrets } = endpoints["secrets.list"].response.parse(res.body);
      return Object.fromEntries(secrets.map((s) => [s.secretKey, [s.secretValue, s.version] as [string, number]]));
    },

    /** How many version rows the project has (a failed batch must add none). */
    versionRows: async () =>
      (await svc.app.db.selectFrom("secret_versions").select("id").where("project_id", "=", projectId).execute())
        .length,

    /** The version numbers stored for one secret of the folder, ascending. */
    async versionsOf(secretKey: string, place: Place = prod()): Promise<number[]> {
      const res = await svc.endpoint("secrets.get", { params: { secretName: secretKey }, query: place });
      const id = endpoints["secrets.get"].response.parse(res.body).secret.id;
      const rows = await svc.app.db
        .selectFrom("secret_versions")
        .select("version")
        .where("secret_id", "=", id)
        .execute();
      return rows.map((r) => r.version).sort((a, b) => a - b);
    },

    /** A member of the project whose only role has these rules; answers its token. */
    async memberWith(permissions: ProjectRule[]): Promise<string> {
      roles += 1;
      const slug = `batch-${roles}`;
      await seedCustomRole(svc, projectId, { slug, name: `Batch ${roles}`, permissions });
      return (await memberWithRoles(svc, projectId, [slug], slug)).token;
    },
  };
}
