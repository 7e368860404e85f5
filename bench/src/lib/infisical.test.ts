import { describe, expect, it } from "vitest";
import { infisicalServers, shortLabel } from "./infisical.ts";

/** A token-auth access token's shape: only its payload's identityId is read. */
const token = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ identityId: "id-1", authTokenType: "identityAccessToken" })).toString("base64url")}.sig`;
const full = {
  KEYHOLD_BENCH_INFISICAL_VERSIONS: "2024",
  KEYHOLD_BENCH_INFISICAL_2024_URL: "http://127.0.0.1:1",
  KEYHOLD_BENCH_INFISICAL_2024_TOKEN: token,
  KEYHOLD_BENCH_INFISICAL_2024_DATABASE_URL: "postgres://postgres@127.0.0.1:2/postgres",
};

describe("infisicalServers", () => {
  it("reads a server from the environment, its identity from the token", () => {
    expect(infisicalServers(full)).toEqual([
      {
        version: "2024",
        label: "Infisical 2024-10 (09d28156)",
        url: "http://127.0.0.1:1",
        token,
        identityId: "id-1",
        postgresUrl: "postgres://postgres@127.0.0.1:2/postgres",
      },
    ]);
  });

  it("takes the label and identity from the environment when set", () => {
    const [server] = infisicalServers({
      ...full,
      KEYHOLD_BENCH_INFISICAL_2024_LABEL: "Infisical 2024-11 (abcdef12)",
      KEYHOLD_BENCH_INFISICAL_2024_IDENTITY_ID: "id-2",
    });
    expect(server?.identityId).toBe("id-2");
    expect(server && shortLabel(server)).toBe("Infisical 2024-11");
  });

  it("says which settings are missing rather than measuring nothing", () => {
    const env = { ...full, KEYHOLD_BENCH_INFISICAL_2024_TOKEN: "opaque" };
    expect(() => infisicalServers(env)).toThrow(/KEYHOLD_BENCH_INFISICAL_2024_IDENTITY_ID/);
  });

  it("refuses a version it does not know", () => {
    expect(() => infisicalServers({ ...full, KEYHOLD_BENCH_INFISICAL_VERSIONS: "2024,2025" })).toThrow(
      "KEYHOLD_BENCH_INFISICAL_VERSIONS names 2025; known: 2024, 2026",
    );
  });
});
