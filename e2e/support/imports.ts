import { endpoints } from "@keyhold/contract";
import type { ServiceCall } from "./api.ts";
import { uniqueName } from "./fixtures.ts";

/**
 * A project's secrets at the root of each environment (`[environment, key]`, values made up) and
 * dev:/ importing staging:/ then prod:/, so keys both hold are supplied by prod:/.
 */
export async function seedDevImports(
  service: ServiceCall,
  workspaceId: string,
  secrets: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [environment, secretName] of secrets) {
    await service(endpoints["secrets.create"], {
      params: { secretName },
      body: { workspaceId, environment, secretPath: "/", secretValue: uniqueName("value") },
    });
  }
  for (const environment of ["staging", "prod"]) {
    await service(endpoints["secretImports.create"], {
      body: { workspaceId, environment: "dev", path: "/", import: { environment, path: "/" } },
    });
  }
}
