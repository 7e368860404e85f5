import { request as httpRequest } from "node:http";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

/**
 * Which address the trusted-IP check sees, over real connections: the service listens on
 * 127.0.0.1 and the client binds its end to another loopback address (Linux answers on all of
 * 127/8). A token trusted only from 127.0.0.1/32 tells the addresses apart.
 */

interface Listening {
  svc: TestService;
  port: number;
}

/** A GET from `from` with the token and any extra headers; resolves with the status. */
function getFrom(target: Listening, path: string, from: string, token: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = httpRequest({
      host: "127.0.0.1",
      port: target.port,
      localAddress: from,
      path,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    outgoing.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

async function listen(svc: TestService): Promise<Listening> {
  await svc.app.listen({ port: 0, host: "127.0.0.1" });
  const address = svc.app.server.address();
  return { svc, port: typeof address === "object" && address ? address.port : 0 };
}

describeEachDatabase("the address checked against trusted IPs", (kind) => {
  const rootKey = randomBytes(32).toString("base64");
  let direct: Listening;
  let behindProxy: Listening;
  let token: string;
  let path: string;

  beforeAll(async () => {
    const svc = await startService({ kind, rootKey });
    direct = await listen(svc);
    // A second instance on the same database, believing X-Forwarded-For from 127.0.0.2 only.
    behindProxy = await listen(
      await startService({ kind, shareWith: svc, env: { KEYHOLD_TRUSTED_PROXIES: "127.0.0.2" } }),
    );
    ({ token } = await identityWithToken(svc, {
      role: "member",
      attach: { accessTokenTrustedIps: [{ ipAddress: "127.0.0.1/32" }] },
    }));
    path = `/api/v1/identities/${svc.info.adminIdentityId}`;
  });
  afterAll(async () => {
    await behindProxy?.svc.close();
    await direct?.svc.close();
  });

  describe("without trusted proxies", () => {
    it("is the connection's peer: 127.0.0.1 is admitted, 127.0.0.2 refused with 403", async () => {
      expect(await getFrom(direct, path, "127.0.0.1", token)).toBe(200);
      expect(await getFrom(direct, path, "127.0.0.2", token)).toBe(403);
    });

    it("ignores X-Forwarded-For, whatever it claims", async () => {
      for (const forwarded of ["127.0.0.1", "10.9.9.9, 127.0.0.1", "127.0.0.2, 127.0.0.1"]) {
        expect(await getFrom(direct, path, "127.0.0.2", token, { "x-forwarded-for": forwarded }), forwarded).toBe(403);
      }
      expect(await getFrom(direct, path, "127.0.0.1", token, { "x-forwarded-for": "10.9.9.9" })).toBe(200);
    });
  });

  describe("with KEYHOLD_TRUSTED_PROXIES=127.0.0.2", () => {
    it("believes the proxy's X-Forwarded-For", async () => {
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "127.0.0.1" })).toBe(200);
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "10.9.9.9" })).toBe(403);
    });

    it("checks the right-most address that is not a trusted proxy", async () => {
      // What a client sent before the proxy appended its peer is not believed.
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "127.0.0.1, 10.9.9.9" })).toBe(
        403,
      );
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "10.9.9.9, 127.0.0.1" })).toBe(
        200,
      );
      // The proxy's own address in the chain is skipped like its connection.
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "127.0.0.1, 127.0.0.2" })).toBe(
        200,
      );
      // Junk in the chain is the address checked, and it matches nothing.
      expect(await getFrom(behindProxy, path, "127.0.0.2", token, { "x-forwarded-for": "bogus" })).toBe(403);
    });

    it("is the peer's own address without X-Forwarded-For", async () => {
      expect(await getFrom(behindProxy, path, "127.0.0.2", token)).toBe(403);
      expect(await getFrom(behindProxy, path, "127.0.0.1", token)).toBe(200);
    });

    it("ignores the X-Forwarded-For of any other peer", async () => {
      expect(await getFrom(behindProxy, path, "127.0.0.3", token, { "x-forwarded-for": "127.0.0.1" })).toBe(403);
      expect(await getFrom(behindProxy, path, "127.0.0.1", token, { "x-forwarded-for": "10.9.9.9" })).toBe(200);
    });
  });
});
