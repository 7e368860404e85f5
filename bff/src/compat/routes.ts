import type { EndpointId } from "@keyhold/contract";
import type { ServerFeature } from "./rules.ts";

/** A path parameter an older route needs and the contract's parameters do not carry. */
export interface ResolvedParam {
  /** The read that yields it (a GET of the contract, on the same upstream). */
  via: EndpointId;
  /** That read's path parameters, from the contract parameters of the call. */
  params: (params: Record<string, unknown>) => Record<string, unknown>;
  /** The value, from that read's (normalised) body. */
  pick: (body: unknown) => unknown;
}

/** Where an older server serves the same operation, with the same body and answer. */
export interface OlderRoute {
  path: string;
  resolve?: Record<string, ResolvedParam>;
}

const projectSlugFromId: ResolvedParam = {
  via: "projects.get",
  params: (params) => ({ workspaceId: params.projectId }),
  pick: (body) => (body as { workspace?: { slug?: unknown } }).workspace?.slug,
};

/**
 * Operations whose contract path is newer than some supported servers: when the contract path
 * answers "route not found", the older path is used, and remembered for that upstream.
 */
export const olderRoutes: Partial<Record<EndpointId, OlderRoute>> = {
  // Servers of 2024 address project roles by project slug, under v1 (recorded: 059, 087).
  "projectRoles.create": { path: "/api/v1/workspace/{projectSlug}/roles", resolve: { projectSlug: projectSlugFromId } },
};

/** Operations that only some servers have: "route not found" there means the feature is missing. */
export const endpointFeatures: Partial<Record<EndpointId, ServerFeature>> = {
  "identityPrivileges.create": "privilegesV2",
  "identityPrivileges.get": "privilegesV2",
  "identityPrivileges.update": "privilegesV2",
};
