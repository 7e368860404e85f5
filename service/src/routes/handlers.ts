import type { AnyEndpoint } from "@keyhold/contract";
import { type AuthMethodName, authMethodNames } from "../data/auth-methods.ts";
import type { AuthMethodService, LifetimeInput } from "../domain/auth-method-service.ts";
import type { IdentityService } from "../domain/identity-service.ts";
import type { TokenAuthService } from "../domain/token-auth-service.ts";
import { type Handler, type HandlerMap, notImplemented } from "./handler-types.ts";

export interface Services {
  identities: IdentityService;
  tokenAuth: TokenAuthService;
  authMethods: AuthMethodService;
}

type Identified = Handler<AnyEndpoint>;

/** The four configuration handlers of every auth method, from its spec: one mechanism, five methods. */
function authMethodHandlers(authMethods: AuthMethodService) {
  const handlers: Record<string, Identified> = {};
  for (const method of authMethodNames as readonly AuthMethodName[]) {
    const { key, envelope } = authMethods.specs[method];
    const wrap = (record: Record<string, unknown>) => ({ [envelope]: record });
    handlers[`${key}.attach`] = async ({ actor, params, body }) =>
      wrap(await authMethods.attach(actor, method, params.identityId, body as LifetimeInput));
    handlers[`${key}.get`] = async ({ actor, params }) => wrap(await authMethods.get(actor, method, params.identityId));
    handlers[`${key}.update`] = async ({ actor, params, body }) =>
      wrap(await authMethods.update(actor, method, params.identityId, body as LifetimeInput));
    handlers[`${key}.revoke`] = async ({ actor, params }) =>
      wrap(await authMethods.revoke(actor, method, params.identityId));
  }
  return handlers as Pick<
    HandlerMap,
    `${"tokenAuth" | "universalAuth" | "kubernetesAuth" | "oidcAuth" | "awsAuth"}.${"attach" | "get" | "update" | "revoke"}`
  >;
}

/** Routes stay thin: each maps the parsed request onto a domain call and wraps the envelope. */
export function buildHandlers({ identities, tokenAuth, authMethods }: Services): HandlerMap {
  return {
    ...authMethodHandlers(authMethods),
    "identities.list": async ({ actor, query }) => identities.list(actor, query.orgId),
    "identities.search": async ({ actor, body }) => identities.search(actor, body),
    "identities.listOrgMemberships": async ({ actor, params, query }) =>
      identities.listOrgMemberships(actor, params.orgId, query),
    "identities.listProjectMemberships": async ({ actor, params }) =>
      identities.listProjectMemberships(actor, params.identityId),
    "identities.create": async ({ actor, body }) => ({ identity: await identities.create(actor, body) }),
    "identities.get": async ({ actor, params }) => ({ identity: await identities.get(actor, params.identityId) }),
    "identities.update": async ({ actor, params, body }) => ({
      identity: await identities.update(actor, params.identityId, body),
    }),
    "identities.delete": async ({ actor, params }) => ({
      identity: await identities.delete(actor, params.identityId),
    }),

    "tokenAuth.createToken": async ({ actor, params, body }) =>
      tokenAuth.createToken(actor, params.identityId, body.name),

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
