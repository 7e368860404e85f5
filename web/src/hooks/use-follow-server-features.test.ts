import { endpoints, SERVER_FEATURES_HEADER } from "@keyhold/contract";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, listenForServerFeatures } from "@/lib/api-client";
import { sessionKeys } from "@/lib/session";
import { json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, session } from "@/testing/fixtures";
import { refreshSessionOnFeatureChange } from "./use-follow-server-features";

afterEach(() => vi.unstubAllGlobals());

describe("the session follows what answers say the server lacks", () => {
  const stampOf = (names: string[]) => (names.length === 0 ? "none" : names.join(","));

  it("reads the session again when an answer names other missing features, and only then", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionKeys.current(), session);
    listenForServerFeatures(refreshSessionOnFeatureChange(queryClient));
    try {
      // The answer of any call carries the header; the session already says the same: nothing to do.
      mockFetch(() => withStamp(json(200, { identity: membership() }), stampOf([])));
      await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } });
      expect(queryClient.getQueryState(sessionKeys.current())?.isInvalidated).toBe(false);

      mockFetch(() => withStamp(json(200, { identity: membership() }), stampOf(["projectDescription"])));
      await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } });
      expect(queryClient.getQueryState(sessionKeys.current())?.isInvalidated).toBe(true);
    } finally {
      listenForServerFeatures(undefined);
    }
  });
});

function withStamp(response: Response, stamp: string): Response {
  response.headers.set(SERVER_FEATURES_HEADER, stamp);
  return response;
}
