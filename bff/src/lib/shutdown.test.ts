import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerProcess, startServerProcess, waitUntil } from "@keyhold/service/test/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeAccessToken, IDENTITY_ID, membership, ORG_ID } from "../test/samples.ts";

/**
 * An upstream whose identity lookups answer at once, except the ones after `holdFrom` is set:
 * those wait until the test releases them, so a forwarded request is in flight for as long as
 * the test needs, with nothing in the BFF made for tests.
 */
function slowUpstream() {
  let hold = false;
  let arrived = () => {};
  const held = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((request, response) => {
    const answer = () =>
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ identity: membership(IDENTITY_ID) }));
    if (!hold) return answer();
    arrived();
    void released.then(answer);
  });
  return {
    server,
    holdFromNow: () => {
      hold = true;
    },
    held,
    release,
  };
}

describe("Graceful shutdown of the BFF process on SIGTERM", () => {
  const upstream = slowUpstream();
  let bff: ServerProcess;
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.server.address() as AddressInfo;
    bff = await startServerProcess("bff", {
      KEYHOLD_UPSTREAM_URL: `http://127.0.0.1:${port}`,
      KEYHOLD_SHUTDOWN_GRACE_MS: "60000",
    });
  }, 120_000);
  afterAll(async () => {
    await bff?.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it("finishes the forwarded request in flight, then exits 0", async () => {
    const csrf = { "x-csrf": "1" };
    const login = await fetch(`${bff.url}/bff/login`, {
      method: "POST",
      headers: { ...csrf, "content-type": "application/json" },
      body: JSON.stringify({ accessToken: fakeAccessToken() }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]?.split(";")[0] ?? "";

    upstream.holdFromNow();
    const inFlight = fetch(`${bff.url}/api/v1/identities/${IDENTITY_ID}`, { headers: { ...csrf, cookie } });
    await upstream.held;
    bff.child.kill("SIGTERM");
    await waitUntil("the listener to close", async () => {
      try {
        await fetch(`${bff.url}/healthz`);
        return false;
      } catch {
        return true;
      }
    });
    expect(bff.child.exitCode).toBeNull();

    upstream.release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ identity: { orgId: ORG_ID, identity: { id: IDENTITY_ID } } });
    expect(await bff.exited).toBe(0);
    expect(bff.output()).toContain("Shutting down");
  }, 60_000);
});
