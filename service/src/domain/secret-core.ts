import type { Kysely } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import { createSealer } from "../lib/sealing.ts";
import { createFolderCommits } from "./folder-commits.ts";
import { createFolderService } from "./folder-service.ts";
import type { ProjectPermissions } from "./project-permissions.ts";
import { createProjectKeys } from "./secret-crypto.ts";
import { createSecretBatches } from "./secret-batch.ts";
import { createSecretScopes } from "./secret-scope.ts";
import { createSecretService } from "./secret-service.ts";
import { createSecretSnapshotService } from "./secret-snapshot-service.ts";
import { createTagService } from "./tag-service.ts";

export interface SecretCoreDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  rootKey: Buffer;
}

/** Folders, tags and raw secrets, wired together: one place that builds them for the app. */
export function createSecretCore({ db, dialect, projectPermissions, rootKey }: SecretCoreDeps) {
  const scopes = createSecretScopes({ db, projectPermissions });
  const keys = createProjectKeys({ db, sealer: createSealer(rootKey, "project-data-keys") });
  const commits = createFolderCommits({ db, dialect, keys });
  return {
    scopes,
    keys,
    commits,
    folders: createFolderService({ db, dialect, projectPermissions, scopes, commits }),
    tags: createTagService({ db, dialect, projectPermissions }),
    secrets: createSecretService({ db, dialect, projectPermissions, scopes, keys, commits }),
    batches: createSecretBatches({ db, dialect, scopes, keys, commits }),
    snapshots: createSecretSnapshotService({ db, projectPermissions, scopes, keys, commits }),
  };
}

export type SecretCore = ReturnType<typeof createSecretCore>;
