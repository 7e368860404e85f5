import { randomUUID } from "node:crypto";
import { findFolderByPath } from "../data/secret-imports.ts";
import { nowIso } from "../lib/time.ts";
import type { TestService } from "./harness.ts";

/** The folder at `secretPath` in an environment, made (with the folders above it) when missing. */
export async function folderAt(svc: TestService, envId: string, secretPath: string): Promise<string> {
  const db = svc.app.db;
  let folder = await findFolderByPath(db, envId, "/", nowIso());
  let path = "";
  for (const name of secretPath.split("/").filter(Boolean)) {
    path += `/${name}`;
    const existing = await findFolderByPath(db, envId, path, nowIso());
    if (existing) folder = existing;
    else {
      const id = randomUUID();
      const now = nowIso();
      await db
        .insertInto("secret_folders")
        .values({ id, env_id: envId, parent_id: folder?.id ?? null, name, created_at: now, updated_at: now })
        .execute();
      folder = { id };
    }
  }
  if (!folder) throw new Error(`no folder at ${secretPath}`);
  return folder.id;
}
