import { endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  projects: endpoints["projects.list"],
  identities: endpoints["identities.listOrgMemberships"],
  roles: endpoints["projectRoles.list"],
  folders: endpoints["folders.list"],
  secrets: endpoints["secrets.list"],
};

/** Where a project's environment is: the project's id and the environment's slug. */
export interface EnvironmentRef {
  projectId: string;
  environment: string;
}

/** A secret as the palette knows it: its key and folder, never its value. */
export interface SecretName {
  secretKey: string;
  secretPath: string;
}

/**
 * The names the palette searches, each read from a list endpoint. Secrets are listed with
 * values withheld, and only their keys and folders are kept (whatever a server sends anyway).
 */
export const paletteApi = {
  projects: async (signal?: AbortSignal) =>
    (await call(ep.projects, {}, { signal })).workspaces.map(({ id, name, environments }) => ({
      id,
      name,
      environments: environments.map(({ id: envId, name: envName, slug }) => ({ id: envId, name: envName, slug })),
    })),

  identities: async (orgId: string, signal?: AbortSignal) =>
    (await call(ep.identities, { params: { orgId }, query: { limit: 1000 } }, { signal })).identityMemberships.map(
      ({ identity }) => ({ id: identity.id, name: identity.name }),
    ),

  roles: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.roles, { params: { projectId } }, { signal })).roles.map(({ id, name, slug }) => ({
      id,
      name,
      slug,
    })),

  /** Every folder of the environment, as full paths ("/a/b"). */
  folders: async ({ projectId, environment }: EnvironmentRef, signal?: AbortSignal) =>
    (
      await call(ep.folders, { query: { workspaceId: projectId, environment, recursive: "true" } }, { signal })
    ).folders.map(({ id, name, relativePath }) => ({ id, path: relativePath ?? `/${name}` })),

  /** Every secret key of the environment, in every folder. */
  secretNames: async ({ projectId, environment }: EnvironmentRef, signal?: AbortSignal): Promise<SecretName[]> => {
    const query = { workspaceId: projectId, environment, secretPath: "/", recursive: "true", viewSecretValue: "false" };
    const { secrets } = await call(ep.secrets, { query }, { signal });
    return secrets.map(({ secretKey, secretPath }) => ({ secretKey, secretPath }));
  },
};

export type PaletteProject = Awaited<ReturnType<typeof paletteApi.projects>>[number];
export type PaletteIdentity = Awaited<ReturnType<typeof paletteApi.identities>>[number];
export type PaletteRole = Awaited<ReturnType<typeof paletteApi.roles>>[number];
export type PaletteFolder = Awaited<ReturnType<typeof paletteApi.folders>>[number];
