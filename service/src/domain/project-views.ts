import type { EnvironmentRecord, Project, ProjectRecord } from "@keyhold/contract";
import type { ProjectEnvironmentRow, ProjectRow } from "../db/schema.ts";
import { toIso } from "../lib/time.ts";

/** Project and environment rows to wire records, with every field the mid-2026 server sends. */

export function toProjectRecord(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    defaultProduct: row.default_product,
    slug: row.slug,
    autoCapitalization: row.auto_capitalization === 1,
    orgId: row.org_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
    upgradeStatus: row.upgrade_status,
    pitVersionLimit: row.pit_version_limit,
    kmsCertificateKeyId: row.kms_certificate_key_id,
    auditLogsRetentionDays: row.audit_logs_retention_days,
    hasDeleteProtection: row.has_delete_protection === 1,
    secretSharing: row.secret_sharing === 1,
    showSnapshotsLegacy: row.show_snapshots_legacy === 1,
    secretDetectionIgnoreValues:
      row.secret_detection_ignore_values === null ? null : (JSON.parse(row.secret_detection_ignore_values) as string[]),
    enforceEncryptedSecretManagerSecretMetadata:
      row.enforce_encrypted_secret_manager_secret_metadata === null
        ? null
        : row.enforce_encrypted_secret_manager_secret_metadata === 1,
  };
}

/** The project with its legacy `_id` and its environments (rows of this project, in order). */
export function toProject(row: ProjectRow, environments: readonly ProjectEnvironmentRow[]): Project {
  return {
    ...toProjectRecord(row),
    _id: row.id,
    environments: environments.map((e) => ({ name: e.name, slug: e.slug, id: e.id })),
  };
}

export function toEnvironmentRecord(row: ProjectEnvironmentRow): EnvironmentRecord {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    position: row.position,
    projectId: row.project_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    deleteAfter: null,
    softDeletedAt: null,
    deletedByUserId: null,
    deletedByIdentityId: null,
  };
}
