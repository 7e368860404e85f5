import type { IdentityService } from "../domain/identity-service.ts";
import type { TokenAuthService } from "../domain/token-auth-service.ts";
import { type HandlerMap, notImplemented } from "./handler-types.ts";

export interface Services {
  identities: IdentityService;
  tokenAuth: TokenAuthService;
}

/** Routes stay thin: each maps the parsed request onto a domain call and wraps the envelope. */
export function buildHandlers({ identities, tokenAuth }: Services): HandlerMap {
  return {
    "identities.list": async ({ actor, query }) => identities.list(actor, query.orgId),
    "identities.create": async ({ actor, body }) => ({ identity: await identities.create(actor, body) }),
    "identities.get": async ({ actor, params }) => ({ identity: await identities.get(actor, params.identityId) }),
    "identities.update": async ({ actor, params, body }) => ({
      identity: await identities.update(actor, params.identityId, body),
    }),
    "identities.delete": async ({ actor, params }) => ({
      identity: await identities.delete(actor, params.identityId),
    }),

    "tokenAuth.attach": async ({ actor, params, body }) => ({
      identityTokenAuth: await tokenAuth.attach(actor, params.identityId, body),
    }),
    "tokenAuth.revoke": async ({ actor, params }) => ({
      identityTokenAuth: await tokenAuth.revoke(actor, params.identityId),
    }),
    "tokenAuth.createToken": async ({ actor, params, body }) =>
      tokenAuth.createToken(actor, params.identityId, body.name),

    "kubernetesAuth.attach": notImplemented,
    "kubernetesAuth.update": notImplemented,
    "kubernetesAuth.get": notImplemented,
    "oidcAuth.update": notImplemented,
    "oidcAuth.get": notImplemented,
    "awsAuth.revoke": notImplemented,
    "identityPrivileges.createPermanentV1": notImplemented,
    "identityPrivileges.deleteV1": notImplemented,
    "identityPrivileges.create": notImplemented,
    "identityPrivileges.update": notImplemented,
    "identityPrivileges.get": notImplemented,
    "projects.create": notImplemented,
    "projects.get": notImplemented,
    "projects.listIntegrations": notImplemented,
    "projects.listMemberships": notImplemented,
    "projectRoles.create": notImplemented,
    "secrets.update": notImplemented,
    "secretImports.update": notImplemented,
  };
}
