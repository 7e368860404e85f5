import type { SecretImportService } from "../domain/secret-import-service.ts";
import type { HandlerMap } from "./handler-types.ts";

type SecretImportEndpointId = `secretImports.${"list" | "create" | "update" | "delete" | "listSecrets"}`;

/** Secret imports: each request onto one domain call, in Infisical's envelopes and messages. */
export function secretImportHandlers(imports: SecretImportService): Pick<HandlerMap, SecretImportEndpointId> {
  return {
    "secretImports.list": async ({ actor, query }) => ({
      message: "Successfully fetched secret imports",
      secretImports: await imports.list(actor, query),
    }),
    "secretImports.create": async ({ actor, body }) => ({
      message: "Successfully created secret import",
      secretImport: await imports.create(actor, body),
    }),
    "secretImports.update": async ({ actor, params, body }) => ({
      message: "Successfully updated secret import",
      secretImport: await imports.update(actor, params.secretImportId, body),
    }),
    "secretImports.delete": async ({ actor, params, body }) => ({
      message: "Successfully deleted secret import",
      secretImport: await imports.delete(actor, params.secretImportId, body),
    }),
    "secretImports.listSecrets": async ({ actor, query }) => ({ secrets: await imports.listSecrets(actor, query) }),
  };
}
