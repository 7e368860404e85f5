import { type AnyEndpoint, type BodyOf, endpoints } from "@keyhold/contract";
import { isApiError } from "@/lib/api-error";
import { call } from "@/lib/api-client";
import {
  byEnd,
  clientSecretEndings,
  type Ending,
  type Holder,
  identityRoleEndings,
  privilegeEndings,
  tokenEndings,
  userRoleEndings,
} from "./endings";

const ep = {
  orgIdentities: endpoints["identities.listOrgMemberships"],
  tokens: endpoints["tokenAuth.listTokens"],
  clientSecrets: endpoints["universalAuth.listClientSecrets"],
  projects: endpoints["projects.list"],
  identityMemberships: endpoints["identityMemberships.list"],
  userMemberships: endpoints["projects.listMemberships"],
  privileges: endpoints["identityPrivileges.list"],
  revokeToken: endpoints["tokenAuth.revokeToken"],
  revokeClientSecret: endpoints["universalAuth.revokeClientSecret"],
  updatePrivilege: endpoints["identityPrivileges.update"],
  updateIdentityRoles: endpoints["identityMemberships.update"],
} satisfies Record<string, AnyEndpoint>;

export type UpdatePrivilegeBody = BodyOf<typeof ep.updatePrivilege>;
export type IdentityRolesBody = BodyOf<typeof ep.updateIdentityRoles>;

/** A part of the radar the server could not give: a missing endpoint (404) or a refusal. */
export interface RadarGap {
  /** What could not be read, e.g. "Client secrets of ci-bot". */
  what: string;
  /** The endpoint's method and path, for a server that lacks it. */
  endpoint: string;
  /** The server has no such route (an older server): the page names the endpoint. */
  missing: boolean;
  message: string;
}

/** A server without the route answers "Route … not found", unlike a 404 for a record. */
function routeMissing(error: unknown): boolean {
  return isApiError(error, 404) && /route .* not found/i.test(error.message);
}

const endpointName = (endpoint: AnyEndpoint) => `${endpoint.method} ${endpoint.path}`;

export interface RadarData {
  endings: Ending[];
  gaps: RadarGap[];
}

/** Big enough for a whole organisation's identities and a project's members in one page. */
const WHOLE_LIST = 20_000;

/**
 * Reads one part; a missing endpoint on an older server, or a refusal for one project, becomes a
 * gap the page names, so the rest still shows. Anything else throws.
 */
async function part<T>(gaps: RadarGap[], what: string, endpoint: AnyEndpoint, read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    // A refusal (403) or an absence (404) of one part; a failing server fails the page, with a retry.
    if (!isApiError(error) || (error.status !== 403 && error.status !== 404)) throw error;
    gaps.push({ what, endpoint: endpointName(endpoint), missing: routeMissing(error), message: error.message });
    return [];
  }
}

async function credentialEndings(orgId: string, gaps: RadarGap[], signal?: AbortSignal): Promise<Ending[]> {
  const memberships = await part(
    gaps,
    "Access tokens and client secrets",
    ep.orgIdentities,
    async () =>
      (await call(ep.orgIdentities, { params: { orgId }, query: { limit: WHOLE_LIST } }, { signal }))
        .identityMemberships,
  );
  const perIdentity = memberships.map(async ({ identity }) => {
    const holder: Holder = { id: identity.id, name: identity.name };
    const params = { identityId: identity.id };
    const [tokens, secrets] = await Promise.all([
      identity.authMethods.includes("token-auth")
        ? part(gaps, `Access tokens of ${identity.name}`, ep.tokens, async () =>
            tokenEndings(
              holder,
              (await call(ep.tokens, { params, query: { offset: "0", limit: "100" } }, { signal })).tokens,
            ),
          )
        : [],
      identity.authMethods.includes("universal-auth")
        ? part(gaps, `Client secrets of ${identity.name}`, ep.clientSecrets, async () =>
            clientSecretEndings(holder, (await call(ep.clientSecrets, { params }, { signal })).clientSecretData),
          )
        : [],
    ]);
    return [...tokens, ...secrets];
  });
  return (await Promise.all(perIdentity)).flat();
}

/** Whether the server has the privilege routes (servers with only the slug-addressed ones do not). */
export interface RadarServer {
  privilegesV2: { available: boolean; reason?: string | undefined };
}

async function projectEndings(server: RadarServer, gaps: RadarGap[], signal?: AbortSignal): Promise<Ending[]> {
  if (!server.privilegesV2.available) {
    gaps.push({
      what: "Temporary privileges",
      endpoint: endpointName(ep.privileges),
      missing: true,
      message: server.privilegesV2.reason ?? "",
    });
  }
  const projects = (await call(ep.projects, {}, { signal })).workspaces;
  const perProject = projects.map(async (project) => {
    const where: Holder = { id: project.id, name: project.name };
    const params = { projectId: project.id };
    const [identityMemberships, users] = await Promise.all([
      part(
        gaps,
        `Identities of project ${project.name}`,
        ep.identityMemberships,
        async () =>
          (await call(ep.identityMemberships, { params, query: { limit: String(WHOLE_LIST) } }, { signal }))
            .identityMemberships,
      ),
      part(gaps, `Users of project ${project.name}`, ep.userMemberships, async () =>
        userRoleEndings(
          where,
          (await call(ep.userMemberships, { params: { workspaceId: project.id } }, { signal })).memberships,
        ),
      ),
    ]);
    const withPrivileges = server.privilegesV2.available ? identityMemberships : [];
    const privileges = await Promise.all(
      withPrivileges.map(({ identity }) =>
        part(gaps, `Privileges of ${identity.name} in ${project.name}`, ep.privileges, async () =>
          privilegeEndings(
            where,
            { id: identity.id, name: identity.name },
            (await call(ep.privileges, { query: { projectId: project.id, identityId: identity.id } }, { signal }))
              .privileges,
          ),
        ),
      ),
    );
    return [...identityRoleEndings(where, identityMemberships), ...users, ...privileges.flat()];
  });
  return (await Promise.all(perProject)).flat();
}

export const radarApi = {
  /** Everything that ends in the organisation, soonest first, and what could not be read. */
  endings: async (orgId: string, server: RadarServer, signal?: AbortSignal): Promise<RadarData> => {
    const gaps: RadarGap[] = [];
    const [credentials, grants] = await Promise.all([
      credentialEndings(orgId, gaps, signal),
      projectEndings(server, gaps, signal),
    ]);
    return { endings: [...credentials, ...grants].sort(byEnd), gaps };
  },

  revokeToken: (tokenId: string) => call(ep.revokeToken, { params: { tokenId } }),

  revokeClientSecret: (identityId: string, clientSecretId: string) =>
    call(ep.revokeClientSecret, { params: { identityId, clientSecretId } }),

  updatePrivilege: async (id: string, body: UpdatePrivilegeBody) =>
    (await call(ep.updatePrivilege, { params: { id }, body })).privilege,

  updateIdentityRoles: async (projectId: string, identityId: string, body: IdentityRolesBody) =>
    (await call(ep.updateIdentityRoles, { params: { projectId, identityId }, body })).roles,
};
