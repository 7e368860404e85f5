import type { ProjectRecord } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { orgRetentionDays, setOrgRetentionDays } from "../data/audit-retention.ts";
import { findOrgProjectBySlug } from "../data/project-access.ts";
import { findProject, updateProjectRow } from "../data/projects.ts";
import type { Database } from "../db/schema.ts";
import type { Actor } from "../domain/access-tokens.ts";
import { NotFoundError } from "../domain/errors.ts";
import { assertOrgPermission } from "../domain/permissions.ts";
import type { ProjectPermissions } from "../domain/project-permissions.ts";
import { toProjectRecord } from "../domain/project-views.ts";
import { nowIso } from "../lib/time.ts";

export interface RetentionSettingsDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
}

/**
 * How long audit events are kept: a project's own `auditLogsRetentionDays` (project
 * `settings:edit`, as Infisical checks it; admins hold it) and the organisation's default for
 * projects without one (read with `audit-logs:read`, changed by org admins). Pruning reads both.
 */
export function createRetentionSettings({ db, projectPermissions }: RetentionSettingsDeps) {
  async function updateProject(actor: Actor, projectId: string, days: number): Promise<ProjectRecord> {
    await projectPermissions.assert(actor, projectId, "edit", "settings");
    await updateProjectRow(db, projectId, { audit_logs_retention_days: days, updated_at: nowIso() });
    const row = await findProject(db, actor.orgId, projectId);
    if (!row) throw new NotFoundError(`Project with ID '${projectId}' not found`);
    return toProjectRecord(row);
  }

  return {
    updateProject,

    /** The October 2024 route names the project by its slug. */
    async updateProjectBySlug(actor: Actor, slug: string, days: number): Promise<ProjectRecord> {
      const project = await findOrgProjectBySlug(db, actor.orgId, slug);
      if (!project) throw new NotFoundError(`Project with slug '${slug}' not found`);
      return updateProject(actor, project.id, days);
    },

    async getOrgDefault(actor: Actor): Promise<number> {
      assertOrgPermission(actor.ability, "read", "audit-logs");
      return orgRetentionDays(db, actor.orgId);
    },

    async updateOrgDefault(actor: Actor, days: number): Promise<number> {
      assertOrgPermission(actor.ability, "edit", "settings");
      await setOrgRetentionDays(db, actor.orgId, days, nowIso());
      return days;
    },
  };
}

export type RetentionSettings = ReturnType<typeof createRetentionSettings>;
