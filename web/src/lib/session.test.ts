import { bffPaths, CSRF_HEADER, CSRF_VALUE } from "@keyhold/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { session } from "@/testing/fixtures";
import bootScript from "../../boot.js?raw";
import { fetchSession } from "./session";

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
