/** Where a folder sits: its parent's path and its own name (`/db/main` → `/db`, `main`); nothing for the root. */
export function splitFolderPath(path: string): { parent: string; name: string } | undefined {
  if (path === "/") return undefined;
  const at = path.lastIndexOf("/");
  return { parent: at === 0 ? "/" : path.slice(0, at), name: path.slice(at + 1) };
}

export function childPath(parent: string, name: string): string {
  return parent === "/" ? `/${name}` : `${parent}/${name}`;
}

/**
 * Whether a folder exists, read from the names of its parent's sub-folders (a missing parent
 * lists none); undefined while they are unknown. The root always exists.
 */
export function folderExists(path: string, namesInParent: readonly string[] | undefined): boolean | undefined {
  const at = splitFolderPath(path);
  if (!at) return true;
  return namesInParent === undefined ? undefined : namesInParent.includes(at.name);
}

/**
 * The folders offered for a typed path, as full paths: the folder itself and its sub-folders
 * when it exists, then the folders beside it whose name contains what is typed of its own.
 */
export function folderChoices(
  path: string,
  namesInParent: readonly string[] | undefined,
  namesInside: readonly string[] | undefined,
): string[] {
  const at = splitFolderPath(path);
  const here = folderExists(path, namesInParent) ? [path, ...(namesInside ?? []).map((n) => childPath(path, n))] : [];
  if (!at) return here;
  const needle = at.name.toLowerCase();
  const beside = (namesInParent ?? [])
    .filter((name) => name !== at.name && name.toLowerCase().includes(needle))
    .map((name) => childPath(at.parent, name));
  return [...here, ...beside];
}

/** The import sources (by id) whose folder is missing, from the listings of their parent folders. */
export function missingSources(
  imports: readonly { id: string; importPath: string; importEnv: { slug: string } }[],
  namesIn: (environment: string, parent: string) => readonly string[] | undefined,
): Set<string> {
  const missing = new Set<string>();
  for (const row of imports) {
    const at = splitFolderPath(row.importPath);
    if (at && folderExists(row.importPath, namesIn(row.importEnv.slug, at.parent)) === false) missing.add(row.id);
  }
  return missing;
}
