import { useQueries, useQuery } from "@tanstack/react-query";
import { useSession } from "@/hooks/use-session";
import type { PaletteProject } from "./api";
import {
  folderItems,
  identityItems,
  orgPageItems,
  type PaletteItem,
  projectItems,
  roleItems,
  secretItems,
} from "./palette-items";
import { paletteQueries } from "./queries";

/** One list the palette could not read, and how to read it again. */
export interface PaletteFailure {
  what: string;
  retry: () => void;
}

export interface PaletteItems {
  items: PaletteItem[];
  /** Some lists are still being read (what has arrived is searchable already). */
  loading: boolean;
  failures: PaletteFailure[];
}

/**
 * Everything the palette offers, read when it opens: the organisation's identities and projects,
 * then each project's roles; each environment's folders and secret keys once something is typed
 * (going to a page asks for no more), in parallel. Each list joins the results as it arrives; one
 * that fails is reported without hiding the others.
 */
export function usePaletteItems(searching: boolean): PaletteItems {
  const session = useSession();
  const projects = useQuery(paletteQueries.projects());
  const identities = useQuery(paletteQueries.identities(session.organization.id));
  const projectList = projects.data ?? [];
  const places = projectList.flatMap((project) =>
    project.environments.map((environment) => ({ project, environment })),
  );

  const roles = useQueries({ queries: projectList.map((project) => paletteQueries.roles(project.id)) });
  const envRef = ({ project, environment }: (typeof places)[number]) => ({
    projectId: project.id,
    environment: environment.slug,
  });
  const folders = useQueries({
    queries: places.map((place) => ({ ...paletteQueries.folders(envRef(place)), enabled: searching })),
  });
  const secrets = useQueries({
    queries: places.map((place) => ({ ...paletteQueries.secretNames(envRef(place)), enabled: searching })),
  });

  const items: PaletteItem[] = [...orgPageItems()];
  for (const project of projectList) items.push(...projectItems(project));
  items.push(...identityItems(identities.data ?? []));
  projectList.forEach((project, i) => items.push(...roleItems(project, roles[i]?.data ?? [])));
  places.forEach(({ project, environment }, i) => {
    items.push(...folderItems(project, environment, folders[i]?.data ?? []));
    items.push(...secretItems(project, environment, secrets[i]?.data ?? []));
  });

  const failures: PaletteFailure[] = [];
  const failed = (query: { isError: boolean; refetch: () => unknown }, what: string) => {
    if (query.isError) failures.push({ what, retry: () => void query.refetch() });
  };
  failed(projects, "projects");
  failed(identities, "identities");
  projectList.forEach((project: PaletteProject, i) => {
    const query = roles[i];
    if (query) failed(query, `roles of ${project.name}`);
  });
  places.forEach(({ project, environment }, i) => {
    const where = `${project.name}/${environment.name}`;
    const folderQuery = folders[i];
    const secretQuery = secrets[i];
    if (folderQuery) failed(folderQuery, `folders of ${where}`);
    if (secretQuery) failed(secretQuery, `secret keys of ${where}`);
  });

  // Reading now: a list not asked for yet (nothing typed) is not loading.
  const reading = (queries: readonly { isLoading: boolean }[]) => queries.some((query) => query.isLoading);
  const loading = projects.isLoading || identities.isLoading || reading(roles) || reading(folders) || reading(secrets);
  return { items, loading, failures };
}
