import { randomUUID } from "node:crypto";
import { serializeRules } from "../domain/project-permissions.ts";
import type { ProjectRule } from "../domain/project-permissions.ts";
import type { TestService } from "./harness.ts";

/**
 * Seeds a project of the service's organisation with the bootstrap admin identity as its
 * `admin` member, as creating a project through the API does.
 */
export async function seedProject(svc: TestService, name: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await svc.app.db
    .insertInto("projects")
    .values({
      id,
      org_id: svc.info.orgId,
      name,
      slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id.slice(0, 6)}`,
      description: null,
      type: "secret-manager",
      default_product: null,
      version: 3,
      upgrade_status: null,
      pit_version_limit: 10,
      kms_certificate_key_id: null,
      kms_secret_manager_key_id: null,
      audit_logs_retention_days: null,
      secret_detection_ignore_values: null,
      enforce_encrypted_secret_manager_secret_metadata: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const membershipId = randomUUID();
  await svc.app.db
    .insertInto("project_memberships")
    .values({
      id: membershipId,
      project_id: id,
      user_id: null,
      identity_id: svc.info.adminIdentityId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await svc.app.db
    .insertInto("project_membership_roles")
    .values({
      id: randomUUID(),
      membership_id: membershipId,
      role: "admin",
      custom_role_id: null,
      temporary_mode: null,
      temporary_range: null,
      temporary_access_start_time: null,
      temporary_access_end_time: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Seeds a custom role of a project; answers its id. */
export async function seedCustomRole(
  svc: TestService,
  projectId: string,
  role: { slug: string; name: string; permissions: ProjectRule[] },
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await svc.app.db
    .insertInto("project_roles")
    .values({
      id,
      project_id: projectId,
      name: role.name,
      slug: role.slug,
      description: null,
      permissions: serializeRules(role.permissions),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
