import type { OidcTestResult } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { ssoBffApi } from "./bff-api";

export const ssoSetupKeys = {
  all: ["sso-setup"] as const,
  setup: () => [...ssoSetupKeys.all, "setup"] as const,
  testResult: () => [...ssoSetupKeys.all, "test-result"] as const,
  identities: (orgId: string) => [...ssoSetupKeys.all, "identities", orgId] as const,
};

/** How often a test sign-in's outcome is read again while it runs in the other window. */
export const TEST_POLL_MS = 1500;

function isPending(result: OidcTestResult | undefined): boolean {
  return result?.status === "pending";
}

export const ssoSetupQueries = {
  setup: () => queryOptions({ queryKey: ssoSetupKeys.setup(), queryFn: ({ signal }) => ssoBffApi.setup(signal) }),
  /** Read again while a test sign-in is pending; `waiting` keeps reading until the new one shows up. */
  testResult: (waiting = false) =>
    queryOptions({
      queryKey: ssoSetupKeys.testResult(),
      queryFn: ({ signal }) => ssoBffApi.testResult(signal),
      refetchInterval: (query) => (waiting || isPending(query.state.data) ? TEST_POLL_MS : false),
      refetchOnWindowFocus: true,
      staleTime: 0,
    }),
};
