import type { ImportedFolder, SecretDetail } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Actor } from "./access-tokens.ts";
import type { ProjectAccess } from "./project-permissions.ts";
import {
  type FolderSecretsReader,
  findInSources,
  type ResolvedSource,
  resolveImports,
  toImportedFolder,
} from "./secret-import-resolution.ts";
import type { FolderLookup } from "./secret-import-service.ts";
import type { ReferenceExpansion } from "./secret-reference-expansion.ts";

/** The folder a raw secrets list or get works in, as the secrets core describes it. */
export interface ImportingFolderContext {
  actor: Actor;
  scope: { access: ProjectAccess; env: { id: string } };
  folder: { id: string };
  secretPath: string;
  viewSecretValue: boolean;
  expandSecretReferences?: boolean | undefined;
}

export interface ImportExtensionsDeps {
  db: Kysely<Database>;
  folders: FolderLookup;
  readFolder: FolderSecretsReader;
  expandReferences: ReferenceExpansion;
}

/**
 * What imports add to the raw secrets list and get (`include_imports=true`): the secrets each
 * import provides, and a key the folder lacks read from the last import that has it; imported
 * values expanded too when the call asks for references expanded.
 */
export function createImportExtensions({ db, folders, readFolder, expandReferences }: ImportExtensionsDeps) {
  const sourcesOf = (context: ImportingFolderContext): Promise<ResolvedSource[]> =>
    resolveImports(
      { db, folders, readFolder },
      {
        actor: context.actor,
        access: context.scope.access,
        folderId: context.folder.id,
        envId: context.scope.env.id,
        secretPath: context.secretPath,
        viewSecretValue: context.viewSecretValue,
      },
    );

  const expandIfAsked = async (context: ImportingFolderContext, secrets: SecretDetail[]) => {
    if (!context.expandSecretReferences) return;
    const request = { access: context.scope.access, viewSecretValue: context.viewSecretValue };
    await expandReferences(request, secrets);
  };

  return {
    async resolveImports(context: ImportingFolderContext): Promise<ImportedFolder[]> {
      const sources = await sourcesOf(context);
      await expandIfAsked(
        context,
        sources.flatMap((source) => source.secrets),
      );
      return sources.map(toImportedFolder);
    },

    async findImported(context: ImportingFolderContext, secretName: string): Promise<SecretDetail | undefined> {
      const found = findInSources(await sourcesOf(context), secretName);
      if (found) await expandIfAsked(context, [found]);
      return found;
    },
  };
}
