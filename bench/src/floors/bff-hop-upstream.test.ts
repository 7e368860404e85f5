import { CONTRACT_REVISION_HEADER, contractRevision } from "@keyhold/contract/revision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startBff, startCannedUpstream, startNginx } from "../cases/bff-hop.ts";
import { csrfHeaders, type RunningService, startService } from "../lib/stack.ts";
import { testContext } from "../lib/test-context.ts";

/** One request's status, content type, exact bytes and contract revision (what the BFF reads of an answer). */
async function answer(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    revision: response.headers.get(CONTRACT_REVISION_HEADER),
    body: Buffer.from(await response.arrayBuffer()).toString("utf8"),
  };
}

/**
 * The BFF hop's stand-in upstream answers the measured read as the service does, and both
 * proxies measured in front of it (the BFF with a session, nginx with the bearer token) pass
 * that answer on byte for byte: neither is measured answering an error.
 */
describe("the BFF hop's stand-in upstream", () => {
  const context = testContext();
  let service: RunningService;
  let upstreamUrl: string;
  let bffUrl: string;
  let nginxUrl: string;
  const bearer = () => ({ authorization: `Bearer ${service.adminToken}` });

  beforeAll(async () => {
    service = await startService(context, { postgres: false });
    upstreamUrl = await startCannedUpstream(context, service);
    [bffUrl, nginxUrl] = await Promise.all([
      startBff(context, upstreamUrl, undefined),
      startNginx(context, upstreamUrl),
    ]);
  });
  afterAll(() => context.close());

  it("answers the read with 200, the service's own bytes and the headers the BFF reads", async () => {
    const measured = await answer(`${service.url}${service.readPath}`, bearer());
    expect(measured.status).toBe(200);
    expect(measured.body).toContain(service.identityId);
    expect(measured.revision).toBe(contractRevision());
    expect(await answer(`${upstreamUrl}${service.readPath}`, bearer())).toEqual(measured);
  });

  it("answers nothing else: 401 without the token, 404 on any other path", async () => {
    expect((await answer(`${upstreamUrl}${service.readPath}`)).status).toBe(401);
    expect((await answer(`${upstreamUrl}${service.readPath}`, { authorization: "Bearer x" })).status).toBe(401);
    expect((await answer(`${upstreamUrl}/api/v1/identities/${crypto.randomUUID()}`, bearer())).status).toBe(404);
    const post = await fetch(`${upstreamUrl}${service.readPath}`, { method: "POST", headers: bearer() });
    expect(post.status).toBe(404);
  });

  it("is what the BFF (signed in) and nginx both pass on, byte for byte", async () => {
    const measured = await answer(`${service.url}${service.readPath}`, bearer());
    const cookie = await signIn(bffUrl, service);
    const viaBff = await answer(`${bffUrl}${service.readPath}`, { cookie, ...csrfHeaders });
    const viaNginx = await answer(`${nginxUrl}${service.readPath}`, bearer());
    // The BFF answers with headers of its own; nginx passes the upstream's on.
    expect(viaBff).toEqual({ ...measured, revision: null });
    expect(viaNginx).toEqual(measured);
  });
});
