import { bffPaths, CSRF_HEADER, CSRF_VALUE, endpoints, SERVER_FEATURES_HEADER } from "@keyhold/contract";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, session } from "@/testing/fixtures";
import bootScript from "../../public/boot.js?raw";
import { call, listenForServerFeatures } from "./api-client";
import { refreshSessionOnFeatureChange } from "@/hooks/use-follow-server-features";
import { fetchSession, sessionKeys } from "./session";

afterEach(() => {
  vi.unstubAllGlobals();
  window.keyholdSessionCheck = undefined;
});

describe("fetchSession", () => {
  it("takes the answer of the check boot.js started, once, then asks the server", async () => {
    const { requests } = mockFetch(() => json(401, errorBody(401, "UnauthorizedError", "No session")));
    window.keyholdSessionCheck = Promise.resolve(json(200, session));

    await expect(fetchSession()).resolves.toEqual(session);
    expect(requests).toHaveLength(0);
    await expect(fetchSession()).resolves.toBeNull();
    expect(requests.map((r) => r.url)).toEqual([bffPaths.session]);
  });

  it("reads an early 401 as nobody signed in", async () => {
    mockFetch(() => json(200, session));
    window.keyholdSessionCheck = Promise.resolve(json(401, errorBody(401, "UnauthorizedError", "No session")));
    await expect(fetchSession()).resolves.toBeNull();
  });

  it("validates the early answer like any other", async () => {
    mockFetch(() => json(200, session));
    window.keyholdSessionCheck = Promise.resolve(json(200, { identity: "not a session" }));
    await expect(fetchSession()).rejects.toMatchObject({ code: "UnexpectedResponse" });
  });

  it("boot.js asks the same path with the CSRF header the BFF requires", () => {
    expect(bootScript).toContain(`window.fetch("${bffPaths.session}"`);
    expect(bootScript).toContain(`"${CSRF_HEADER}": "${CSRF_VALUE}"`);
  });
});

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
