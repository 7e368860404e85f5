import type { IntegrationService } from "../domain/integration-service.ts";
import type { HandlerMap } from "./handler-types.ts";

type IntegrationEndpointId =
  | "projects.listIntegrations"
  | "projects.listIntegrationAuths"
  | `integrationAuths.${"create" | "get" | "update" | "delete"}`
  | `integrations.${"create" | "get" | "update" | "delete"}`;

/** Integration auths and integrations: each request onto one domain call, wrapped in its envelope. */
export function integrationHandlers(integrations: IntegrationService): Pick<HandlerMap, IntegrationEndpointId> {
  return {
    "projects.listIntegrations": async ({ actor, params }) => ({
      integrations: await integrations.list(actor, params.workspaceId),
    }),
    "projects.listIntegrationAuths": async ({ actor, params }) => ({
      authorizations: await integrations.listAuths(actor, params.workspaceId),
    }),
    "integrationAuths.create": async ({ actor, body }) => ({
      integrationAuth: await integrations.createAuth(actor, body),
    }),
    "integrationAuths.get": async ({ actor, params }) => ({
      integrationAuth: await integrations.getAuth(actor, params.integrationAuthId),
    }),
    "integrationAuths.update": async ({ actor, params, body }) => ({
      integrationAuth: await integrations.updateAuth(actor, params.integrationAuthId, body),
    }),
    "integrationAuths.delete": async ({ actor, params }) => ({
      integrationAuth: await integrations.deleteAuth(actor, params.integrationAuthId),
    }),
    "integrations.create": async ({ actor, body }) => ({ integration: await integrations.create(actor, body) }),
    "integrations.get": async ({ actor, params }) => ({
      integration: await integrations.get(actor, params.integrationId),
    }),
    "integrations.update": async ({ actor, params, body }) => ({
      integration: await integrations.update(actor, params.integrationId, body),
    }),
    "integrations.delete": async ({ actor, params }) => ({
      integration: await integrations.delete(actor, params.integrationId),
    }),
  };
}
