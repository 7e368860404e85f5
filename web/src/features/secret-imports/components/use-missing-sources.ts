import type { SecretImport } from "@keyhold/contract";
import { useQueries } from "@tanstack/react-query";
import { secretImportQueries } from "../queries";
import { missingSources, splitFolderPath } from "../source-folders";

/**
 * The imports (by id) whose source folder does not exist: servers accept such an import, which
 * then brings nothing. One listing per parent folder; an import whose parent cannot be listed is
 * not marked.
 */
export function useMissingSources(projectId: string, imports: readonly SecretImport[]): Set<string> {
  const parents = new Map<string, { environment: string; path: string }>();
  for (const row of imports) {
    const parent = splitFolderPath(row.importPath)?.parent;
    if (parent !== undefined)
      parents.set(`${row.importEnv.slug}:${parent}`, { environment: row.importEnv.slug, path: parent });
  }
  const keys = [...parents.keys()];
  const listings = useQueries({
    queries: [...parents.values()].map((parent) => secretImportQueries.subFolders({ projectId, ...parent })),
  });
  const names = new Map(keys.map((key, index) => [key, listings[index]?.data]));
  return missingSources(imports, (environment, parent) => names.get(`${environment}:${parent}`));
}
