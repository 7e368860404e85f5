import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Writable } from "node:stream";
import { errorNames } from "@keyhold/contract";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { HttpError } from "../errors.ts";
import { createUpstream, type Upstream } from "./client.ts";

const TOKEN = "header.payload.signature-that-must-not-be-logged";

let logLines: string[] = [];
const log = pino(
  { level: "trace" },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  }),
);

interface TestServer {
  origin: string;
  /** TCP connections accepted so far. */
  connections: number;
  headers: IncomingMessage["headers"][];
  server: Server;
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    state.headers.push(req.headers);
    req.resume();
    req.on("end", () => handler(req, res));
  });
  const state: TestServer = {
    origin: "",
    connections: 0,
    headers: [],
    server,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
  server.on("connection", (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
};

const get = (upstream: Upstream) =>
  upstream.call({ method: "GET", pathAndQuery: "/api/v1/x", accessToken: TOKEN, endpoint: "x.get" }, log);

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("the upstream client", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
    logLines = [];
  });

  async function start(handler: (req: IncomingMessage, res: ServerResponse) => void, timeoutMs = 5_000) {
    const server = await serve(handler);
    const upstream = createUpstream({ origin: server.origin, timeoutMs });
    cleanup.push(
      () => server.close(),
      () => upstream.close(),
    );
    return { server, upstream };
  }

  // undici may hand a request to a fresh connection while the one that just answered is being
  // released, so a pool settles at up to twice the concurrency; what matters is that it settles.
  it("reuses kept-alive connections for requests one after another", async () => {
    const { server, upstream } = await start((_req, res) => json(res, 200, { ok: true }));
    for (let i = 0; i < 50; i++) expect(await get(upstream)).toEqual({ status: 200, text: '{"ok":true}' });
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it("reuses kept-alive connections for concurrent requests", async () => {
    const { server, upstream } = await start((_req, res) => setTimeout(() => json(res, 200, {}), 5));
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 25; i++) expect((await get(upstream)).status).toBe(200);
      }),
    );
    expect(server.connections).toBeGreaterThan(1);
    expect(server.connections).toBeLessThanOrEqual(16);
  });

  it("sends only the bearer token, Accept and the JSON content type, beside Host, Connection and Content-Length", async () => {
    const { server, upstream } = await start((_req, res) => json(res, 201, {}));
    await get(upstream);
    await upstream.call(
      { method: "PATCH", pathAndQuery: "/api/v1/x", accessToken: TOKEN, body: { name: "n" }, endpoint: "x.update" },
      log,
    );
    expect(Object.keys(server.headers[0] ?? {}).sort()).toEqual(["accept", "authorization", "connection", "host"]);
    expect(Object.keys(server.headers[1] ?? {}).sort()).toEqual([
      "accept",
      "authorization",
      "connection",
      "content-length",
      "content-type",
      "host",
    ]);
    expect(server.headers[1]).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: "application/json",
      "content-type": "application/json",
      connection: "keep-alive",
    });
  });

  it("replaces a connection the upstream closed while it was idle", async () => {
    const { server, upstream } = await start((_req, res) => json(res, 200, {}));
    server.server.keepAliveTimeout = 50;
    expect((await get(upstream)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(upstream)).status).toBe(200);
    expect(server.connections).toBe(2);
  });

  it("answers 502 when the upstream refuses connections, and logs the reason without the token", async () => {
    const { server, upstream } = await start((_req, res) => json(res, 200, {}));
    await server.close();
    const error = await rejection(get(upstream));
    expect(error.statusCode).toBe(502);
    expect(error.error).toBe(errorNames.badGateway);
    expect(error.message).toMatch(/could not be reached/);
    const logged = logLines.join("");
    expect(logged).toContain("ECONNREFUSED");
    expect(logged).toContain("x.get");
    expect(logged).not.toContain(TOKEN);
  });

  it("answers 502 after a kept-alive connection was refused on the next attempt", async () => {
    const { server, upstream } = await start((_req, res) => json(res, 200, {}));
    expect((await get(upstream)).status).toBe(200);
    await server.close();
    expect((await rejection(get(upstream))).statusCode).toBe(502);
  });

  it("answers 504 when the answer does not begin within the deadline", async () => {
    const { upstream } = await start(() => {}, 200);
    const started = Date.now();
    const error = await rejection(get(upstream));
    expect(error.statusCode).toBe(504);
    expect(error.error).toBe(errorNames.gatewayTimeout);
    expect(error.message).toMatch(/within 0\.2 s/);
    // undici's shared timer ticks about every half second.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(logLines.join("")).toContain("UND_ERR_HEADERS_TIMEOUT");
  });

  it("answers 504 when the answer stalls after its headers", async () => {
    const { upstream } = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write("{");
    }, 200);
    const error = await rejection(get(upstream));
    expect(error.statusCode).toBe(504);
    expect(logLines.join("")).toContain("UND_ERR_BODY_TIMEOUT");
  });

  it("answers 502 when the upstream breaks off mid-body, and the next request still gets through", async () => {
    let calls = 0;
    const { upstream } = await start((req, res) => {
      if (calls++ > 0) return json(res, 200, {});
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"partial', () => setTimeout(() => req.socket.resetAndDestroy(), 10));
    });
    expect((await rejection(get(upstream))).statusCode).toBe(502);
    expect((await get(upstream)).status).toBe(200);
  });

  it("does not follow a redirect", async () => {
    const { server, upstream } = await start((_req, res) => {
      res.writeHead(302, { location: "http://evil.example/" });
      res.end();
    });
    const error = await rejection(get(upstream));
    expect(error.statusCode).toBe(502);
    expect(error.message).toMatch(/unexpected redirect \(HTTP 302\)/);
    expect(server.headers).toHaveLength(1);
  });

  it("answers 502 to a body that is not JSON", async () => {
    const { upstream } = await start((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>");
    });
    expect((await rejection(get(upstream))).message).toMatch(/unexpected response \(HTTP 200\)/);
  });

  it("answers 502 to an answer with two content types", async () => {
    const { upstream } = await start((_req, res) => {
      res.writeHead(200, [
        ["content-type", "application/json"],
        ["content-type", "text/html"],
      ]);
      res.end("{}");
    });
    expect((await rejection(get(upstream))).statusCode).toBe(502);
  });

  it("takes the final answer after an informational one", async () => {
    const { upstream } = await start((_req, res) => {
      res.writeEarlyHints({ link: "</x>; rel=preload" });
      json(res, 200, { final: true });
    });
    expect(await get(upstream)).toEqual({ status: 200, text: '{"final":true}' });
  });

  it("reads an answer that arrives in several chunks, multi-byte characters split between them", async () => {
    const { upstream } = await start((_req, res) => {
      const bytes = Buffer.from(JSON.stringify({ name: "zürich-€-𝄞" }));
      res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes.length) });
      res.write(bytes.subarray(0, 11)); // inside "ü"
      setTimeout(() => res.end(bytes.subarray(11)), 20);
    });
    expect(JSON.parse((await get(upstream)).text)).toEqual({ name: "zürich-€-𝄞" });
  });

  it("passes an empty answer through", async () => {
    const { upstream } = await start((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await get(upstream)).toEqual({ status: 204, text: "" });
  });
});
