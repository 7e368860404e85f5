import { paths, type ProjectSection } from "@/config/paths";
import { withPlace } from "@/config/place";
import type { PaletteFolder, PaletteIdentity, PaletteProject, PaletteRole, SecretName } from "./api";

/** The palette's groups, in the order they are listed. */
export const paletteGroups = [
  "Pages",
  "Actions",
  "Projects",
  "Environments",
  "Folders",
  "Secrets",
  "Roles",
  "Identities",
] as const;
export type PaletteGroup = (typeof paletteGroups)[number];

/** One thing the palette can open: `name` says what it opens (the option's accessible name). */
export interface PaletteItem {
  id: string;
  group: PaletteGroup;
  /** What is shown first: a page's, project's or identity's name, a folder's path, a secret's key. */
  label: string;
  /** Where it is (project, environment, folder), shown after the label. */
  detail?: string | undefined;
  name: string;
  href: string;
}

function item(group: PaletteGroup, id: string, label: string, href: string, detail?: string): PaletteItem {
  return { id: `${group}:${id}`, group, label, detail, name: detail ? `${label} — ${detail}` : label, href };
}

const orgPages: { label: string; href: string }[] = [
  { label: "Identities", href: paths.identities.href() },
  { label: "Projects", href: paths.projects.href() },
  { label: "Audit log", href: paths.auditLog.href() },
  { label: "Organization settings", href: paths.orgSettings.href() },
  { label: "Single sign-on settings", href: paths.ssoSetup.href() },
];

const projectPages: { section: ProjectSection; label: string }[] = [
  { section: "secrets", label: "Secrets" },
  { section: "secretsOverview", label: "Secrets overview" },
  { section: "secretImports", label: "Secret imports" },
  { section: "secretHistory", label: "Secret history" },
  { section: "roles", label: "Roles" },
  { section: "access", label: "Access" },
  { section: "integrations", label: "Integrations" },
];

/** The secrets page at a place: an environment, a folder and, if given, the secret open in its drawer. */
export function secretsHref(projectId: string, environment: string, secretPath: string, secretKey?: string): string {
  const href = withPlace(paths.project.secrets.href(projectId), { environment, secretPath });
  if (secretKey === undefined) return href;
  return `${href}${href.includes("?") ? "&" : "?"}${new URLSearchParams({ secret: secretKey })}`;
}

export function orgPageItems(): PaletteItem[] {
  return orgPages.map(({ label, href }) => item("Pages", href, label, href));
}

/** A project, its pages, its environments and the action of creating a secret in each. */
export function projectItems(project: PaletteProject): PaletteItem[] {
  const items = [item("Projects", project.id, project.name, paths.projectHome.href(project.id))];
  for (const { section, label } of projectPages) {
    const href = paths.project[section].href(project.id);
    items.push(item("Pages", href, label, href, project.name));
  }
  for (const env of project.environments) {
    const href = secretsHref(project.id, env.slug, "/");
    items.push(item("Environments", `${project.id}/${env.slug}`, env.name, href, project.name));
    items.push(
      item(
        "Actions",
        `create-secret/${project.id}/${env.slug}`,
        `Create secret in ${project.name}/${env.name}`,
        `${href}${href.includes("?") ? "&" : "?"}create=secret`,
      ),
    );
  }
  return items;
}

export function identityItems(identities: readonly PaletteIdentity[]): PaletteItem[] {
  return identities.flatMap(({ id, name }) => [
    item("Identities", id, name, paths.identity.href(id)),
    item(
      "Actions",
      `attach/${id}`,
      `Attach auth method to ${name}`,
      `${paths.identity.href(id)}#identity-auth-methods`,
    ),
  ]);
}

export function roleItems(project: PaletteProject, roles: readonly PaletteRole[]): PaletteItem[] {
  return roles.map(({ slug, name }) =>
    item("Roles", `${project.id}/${slug}`, name, paths.projectRole.href(project.id, slug), project.name),
  );
}

export function folderItems(
  project: PaletteProject,
  environment: PaletteProject["environments"][number],
  folders: readonly PaletteFolder[],
): PaletteItem[] {
  return folders.map(({ path }) =>
    item(
      "Folders",
      `${project.id}/${environment.slug}${path}`,
      path,
      secretsHref(project.id, environment.slug, path),
      `${project.name} · ${environment.name}`,
    ),
  );
}

export function secretItems(
  project: PaletteProject,
  environment: PaletteProject["environments"][number],
  secrets: readonly SecretName[],
): PaletteItem[] {
  return secrets.map(({ secretKey, secretPath }) =>
    item(
      "Secrets",
      `${project.id}/${environment.slug}${secretPath}/${secretKey}`,
      secretKey,
      secretsHref(project.id, environment.slug, secretPath, secretKey),
      `${project.name} · ${environment.name} · ${secretPath}`,
    ),
  );
}

/** How well an item matches every word typed: lower is better; undefined is no match. */
function score(entry: PaletteItem, words: readonly string[]): number | undefined {
  const label = entry.label.toLowerCase();
  const all = `${label} ${entry.detail?.toLowerCase() ?? ""}`;
  if (!words.every((word) => all.includes(word))) return undefined;
  const phrase = words.join(" ");
  if (label === phrase) return 0;
  if (label.startsWith(phrase)) return 1;
  if (label.includes(phrase)) return 2;
  return words.every((word) => label.includes(word)) ? 3 : 4;
}

/**
 * The items matching `search` (every word, in the label or where it is, without regard to case),
 * best first within each group (then the shortest), at most `perGroup` of each; the group with the best match comes
 * first (the fixed order breaks ties). Without a search, only pages, actions and projects are
 * offered, in their own order.
 */
export function searchItems(items: readonly PaletteItem[], search: string, perGroup: number): PaletteItem[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const byGroup = new Map<PaletteGroup, { entry: PaletteItem; rank: number }[]>();
  for (const entry of items) {
    // Without a search: the organisation's pages (a project's appear once searched for), actions, projects.
    if (
      words.length === 0 &&
      (!["Pages", "Actions", "Projects"].includes(entry.group) || (entry.group === "Pages" && entry.detail))
    )
      continue;
    const rank = words.length === 0 ? 0 : score(entry, words);
    if (rank === undefined) continue;
    const list = byGroup.get(entry.group) ?? [];
    list.push({ entry, rank });
    byGroup.set(entry.group, list);
  }
  const groups = paletteGroups
    .map((group) =>
      (byGroup.get(group) ?? [])
        // Without a search the lists keep their own order (the console's pages as in the sidebar).
        .sort((a, b) =>
          words.length === 0
            ? 0
            : a.rank - b.rank ||
              a.entry.label.length - b.entry.label.length ||
              a.entry.label.localeCompare(b.entry.label),
        )
        .slice(0, perGroup),
    )
    .filter((list) => list.length > 0);
  // Stable: groups whose best matches are equally good keep their fixed order.
  groups.sort((a, b) => (a[0]?.rank ?? 0) - (b[0]?.rank ?? 0));
  return groups.flatMap((list) => list.map(({ entry }) => entry));
}
