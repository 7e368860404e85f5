import { deriveTokenSigningKey } from "@keyhold/service/tokens";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startBareFloor, startService } from "../lib/stack.ts";
import { testContext } from "../lib/test-context.ts";

/** One request's status, content type and exact bytes. */
async function answer(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: Buffer.from(await response.arrayBuffer()).toString("utf8"),
  };
}

/**
 * A floor is only a floor when it does the measured path's work: each must answer the same
 * request with 200 and the very bytes the service sends, and refuse what the service refuses.
 */
describe.each([
  { database: "SQLite", postgres: false },
  { database: "PostgreSQL", postgres: true },
])("the authenticated-read floor on $database", ({ postgres }) => {
  const context = testContext();
  let service: RunningService;
  let floorUrl: string;

  beforeAll(async () => {
    if (postgres && !context.postgresUrl) throw new Error("KEYHOLD_TEST_DATABASE_URL is not set");
    service = await startService(context, { postgres });
    floorUrl = await startBareFloor(context, service);
  });
  afterAll(() => context.close());

  it("answers 200 with the service's own bytes", async () => {
    const headers = { authorization: `Bearer ${service.adminToken}` };
    const measured = await answer(`${service.url}${service.readPath}`, headers);
    const floor = await answer(`${floorUrl}${service.readPath}`, headers);
    expect(measured.status).toBe(200);
    expect(floor).toEqual(measured);
  });

  it("refuses a token whose signature does not hold, as the service does", async () => {
    const [header, payload, signature = ""] = service.adminToken.split(".");
    const forged = `${header}.${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const headers = { authorization: `Bearer ${forged}` };
    expect((await answer(`${service.url}${service.readPath}`, headers)).status).toBe(403);
    expect((await answer(`${floorUrl}${service.readPath}`, headers)).status).toBe(403);
  });

  it("refuses a well-signed token past its expiry, as the service does", async () => {
    const claims = JSON.parse(Buffer.from(service.adminToken.split(".")[1] ?? "", "base64url").toString("utf8"));
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(now - 120)
      .setExpirationTime(now - 60)
      .sign(deriveTokenSigningKey(Buffer.from(service.rootKeyHex, "hex")));
    const headers = { authorization: `Bearer ${expired}` };
    expect((await answer(`${service.url}${service.readPath}`, headers)).status).toBe(403);
    expect((await answer(`${floorUrl}${service.readPath}`, headers)).status).toBe(403);
  });
});
