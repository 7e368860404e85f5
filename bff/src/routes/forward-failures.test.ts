import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { errorNames } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, IDENTITY_ID, membership } from "../test/samples.ts";

/** T24: the upstream refuses, hangs, stalls or breaks off; the BFF answers 502/504 on its own deadline. */
let upstream: RecordingUpstream;
let token: string;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  token = fakeAccessToken();
});

describe("an unreachable or slow upstream", () => {
  let slow: TestBff | undefined;
  afterEach(async () => {
    await slow?.close();
    slow = undefined;
  });

  async function startBffFor(upstreamOrigin: string, timeoutMs = 15_000) {
    slow = await startBff(testConfig({ upstreamOrigin, upstreamTimeoutMs: timeoutMs }));
    return slow;
  }

  it("answers 502 when the upstream refuses connections", async () => {
    const closed = await startRecordingUpstream(() => ({ status: 200, body: { identity: membership() } }));
    const origin = closed.origin;
    const app = await startBffFor(origin);
    const { cookie: c } = await logIn(app, token);
    await closed.close();
    const res = await app.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie: c } });
    expect(res.status).toBe(502);
    expect(res.json).toMatchObject({ statusCode: 502, error: errorNames.badGateway, message: /could not be reached/ });
    expect(res.text).not.toContain(token);
    expect(res.text).not.toMatch(/at .*\.ts/);
  });

  it("answers 504 when the upstream hangs past the deadline", async () => {
    const app = await startBffFor(upstream.origin, 300);
    upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
    const { cookie: c } = await logIn(app, token);
    upstream.respond(() => ({ status: 200, hang: true }));
    const started = Date.now();
    const res = await app.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie: c } });
    expect(res.status).toBe(504);
    expect(res.json).toMatchObject({ statusCode: 504, error: errorNames.gatewayTimeout, message: /0\.3 s/ });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.text).not.toContain(token);
  });

  /** A raw socket server that answers identities.get correctly once (for sign-in), then misbehaves. */
  async function startFaultyUpstream(fault: (socket: Socket) => void) {
    let served = 0;
    const server = createServer((socket) => {
      socket.once("data", () => {
        if (served++ === 0) {
          const body = JSON.stringify({ identity: membership() });
          socket.end(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
          );
        } else fault(socket);
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
  }

  it.each([
    [
      "resets the connection mid-body",
      502,
      (s: Socket) => {
        s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"partial');
        setTimeout(() => s.resetAndDestroy(), 20);
      },
    ],
    [
      "sends headers and then stalls",
      504,
      (s: Socket) => {
        s.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{");
      },
    ],
  ] as const)("when the upstream %s the answer is %i", async (_, status, fault) => {
    const faulty = await startFaultyUpstream(fault);
    try {
      const app = await startBffFor(faulty.origin, 400);
      const { cookie: c } = await logIn(app, token);
      const res = await app.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie: c } });
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ statusCode: status });
    } finally {
      await slow?.close();
      slow = undefined;
      faulty.close();
    }
  });
});
