import { accessTokenEndpoints } from "./access-tokens.ts";
import { auditLogEndpoints, auditLogStreamEndpoints } from "./audit-logs.ts";
import { awsAuthEndpoints } from "./aws-auth.ts";
import type { AnyEndpoint } from "./endpoint.ts";
import { folderEndpoints } from "./folders.ts";
import { identityEndpoints } from "./identities.ts";
import { identityPrivilegeEndpoints } from "./identity-privileges.ts";
import { integrationEndpoints } from "./integrations.ts";
import { kubernetesAuthEndpoints } from "./kubernetes-auth.ts";
import { membershipEndpoints } from "./memberships.ts";
import { oidcAuthEndpoints } from "./oidc-auth.ts";
import { permissionEndpoints } from "./permissions.ts";
import { projectRoleEndpoints } from "./project-roles.ts";
import { projectEndpoints } from "./projects.ts";
import { secretChangeEndpoints } from "./secret-changes.ts";
import { secretImportEndpoints } from "./secret-imports.ts";
import { secretSnapshotEndpoints } from "./secret-snapshots.ts";
import { secretEndpoints } from "./secrets.ts";
import { tagEndpoints } from "./tags.ts";
import { tokenAuthEndpoints } from "./token-auth.ts";
import { universalAuthEndpoints } from "./universal-auth.ts";

export * from "./access-tokens.ts";
export * from "./allow-lists.ts";
export * from "./audit-logs.ts";
export * from "./auth-method.ts";
export * from "./aws-auth.ts";
export * from "./bff.ts";
export * from "./common.ts";
export * from "./endpoint.ts";
export * from "./errors.ts";
export * from "./folders.ts";
export * from "./identities.ts";
export * from "./identity-privileges.ts";
export * from "./integrations.ts";
export * from "./kubernetes-auth.ts";
export * from "./memberships.ts";
export * from "./oidc-auth.ts";
export * from "./permissions.ts";
export * from "./project-roles.ts";
export * from "./projects.ts";
export * from "./secret-changes.ts";
export * from "./secret-imports.ts";
export * from "./secret-snapshots.ts";
export * from "./secrets.ts";
export * from "./storable-text.ts";
export * from "./tags.ts";
export * from "./token-auth.ts";
export * from "./trusted-ips.ts";
export * from "./universal-auth.ts";

/** Every endpoint of the API, in one list. */
export const endpointList = [
  ...identityEndpoints,
  ...tokenAuthEndpoints,
  ...universalAuthEndpoints,
  ...accessTokenEndpoints,
  ...kubernetesAuthEndpoints,
  ...oidcAuthEndpoints,
  ...awsAuthEndpoints,
  ...identityPrivilegeEndpoints,
  ...permissionEndpoints,
  ...projectEndpoints,
  ...integrationEndpoints,
  ...membershipEndpoints,
  ...projectRoleEndpoints,
  ...secretEndpoints,
  ...secretImportEndpoints,
  ...secretSnapshotEndpoints,
  ...secretChangeEndpoints,
  ...folderEndpoints,
  ...tagEndpoints,
  ...auditLogEndpoints,
  ...auditLogStreamEndpoints,
] as const;

type EndpointUnion = (typeof endpointList)[number];
export type EndpointId = EndpointUnion["id"];
export type Endpoints = { [E in EndpointUnion as E["id"]]: E };

/** Every endpoint, keyed by id: `endpoints["identities.get"]`. */
export const endpoints = Object.fromEntries(endpointList.map((e) => [e.id, e])) as Endpoints;

// A compile-time guard that every entry is a well-formed endpoint.
endpointList satisfies readonly AnyEndpoint[];
