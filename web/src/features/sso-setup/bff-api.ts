import { bffPaths, OidcSetupSchema, OidcTestResultSchema } from "@keyhold/contract";
import { request } from "@/lib/api-client";

/**
 * The BFF's own single sign-on routes. Apart from the service calls (api.ts), so the test window's
 * page loads without the contract's endpoint table.
 */
export const ssoBffApi = {
  setup: (signal?: AbortSignal) => request({ method: "GET", url: bffPaths.oidcSetup, schema: OidcSetupSchema, signal }),

  testResult: (signal?: AbortSignal) =>
    request({ method: "GET", url: bffPaths.oidcTest, schema: OidcTestResultSchema, signal }),
};
