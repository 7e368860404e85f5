import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackPeer, startLoopbackPeer } from "../test/loopback.ts";
import { OutboundInvalidRequestError, outboundRequest } from "./outbound-http.ts";

describe("outboundRequest", () => {
  let peer: LoopbackPeer;
  beforeAll(async () => {
    peer = await startLoopbackPeer(() => ({ body: { ok: true } }));
  });
  afterAll(() => peer?.close());

  it("sends what HTTP allows, a tab in a header value included", async () => {
    const answer = await outboundRequest({ url: peer.url, headers: { authorization: "Bearer a\tb" } });
    expect(answer).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it.each([
    ["a URL that does not parse", { url: "localhost/apis" }],
    ["a control character in the method", { method: "PO\tST" }],
    ["a line break in a header value", { headers: { authorization: "Bearer a\nb" } }],
    ["a control character in a header value", { headers: { authorization: "Bearer a\u0001b" } }],
    ["a control character in a header name", { headers: { "x-\u0001": "b" } }],
  ])("refuses a request it cannot write (%s) without sending anything", async (_, request) => {
    const before = peer.received.length;
    await expect(outboundRequest({ url: peer.url, ...request })).rejects.toBeInstanceOf(OutboundInvalidRequestError);
    expect(peer.received).toHaveLength(before);
  });
});
