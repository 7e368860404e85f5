import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { type BodyDrainBounds, bodyTooLargeMessage, drainOversizedBody } from "./runtime-server.ts";

interface Outcome {
  connection: "kept" | "closed";
  /** Whether the drain ended before the body did. */
  unread: boolean;
  ms: number;
}

/**
 * Starts a server whose every request is drained as an oversized body would be, lets `send`
 * write a raw request to it, and tells what the drain decided.
 */
async function drain(bounds: BodyDrainBounds, send: (socket: net.Socket) => void): Promise<Outcome> {
  let decided!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => {
    decided = resolve;
  });
  const server = http.createServer(async (request, response) => {
    const started = performance.now();
    let connection: Outcome["connection"] | undefined;
    const reply = {
      header: () => (connection = "closed"),
      removeHeader: () => (connection = "kept"),
    };
    await drainOversizedBody(request, reply, bounds);
    decided({ connection: connection ?? "kept", unread: !request.readableEnded, ms: performance.now() - started });
    response.writeHead(413, { connection: "close" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
  socket.on("error", () => {
    // the server may reset a connection it stopped reading
  });
  try {
    send(socket);
    return await outcome;
  } finally {
    socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const head = (length: number | "chunked") =>
  `PATCH /x HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${
    length === "chunked" ? "transfer-encoding: chunked" : `content-length: ${length}`
  }\r\n\r\n`;

describe("drainOversizedBody", () => {
  const bounds = { maxBytes: 64 * 1024, maxMs: 300 };

  it("reads a body within the bounds to its end and keeps the connection", async () => {
    const body = "x".repeat(40 * 1024);
    const outcome = await drain(bounds, (socket) => socket.write(head(body.length) + body));
    expect(outcome).toMatchObject({ connection: "kept", unread: false });
  });

  it("does not wait for a body whose Content-Length is past the bound: Connection: close at once", async () => {
    const outcome = await drain(bounds, (socket) => socket.write(`${head(bounds.maxBytes + 1)}xxxx`));
    expect(outcome).toMatchObject({ connection: "closed", unread: true });
    expect(outcome.ms).toBeLessThan(bounds.maxMs);
  });

  it("stops reading a chunked body once it passes the bound", async () => {
    const chunk = "x".repeat(16 * 1024);
    const outcome = await drain(bounds, (socket) => {
      socket.write(head("chunked"));
      for (let i = 0; i < 8; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    });
    expect(outcome).toMatchObject({ connection: "closed", unread: true });
    expect(outcome.ms).toBeLessThan(bounds.maxMs);
  });

  it("gives up on a body that stops coming once the time is up", async () => {
    const outcome = await drain(bounds, (socket) => socket.write(`${head(1000)}{"name":"`));
    expect(outcome).toMatchObject({ connection: "closed", unread: true });
    expect(outcome.ms).toBeGreaterThanOrEqual(bounds.maxMs - 20);
  });
});

describe("bodyTooLargeMessage", () => {
  it.each([
    [1024 * 1024, "The request body is larger than the 1 MB limit"],
    [1536 * 1024, "The request body is larger than the 1.5 MB limit"],
    [512 * 1024, "The request body is larger than the 512 KB limit"],
    [2 * 1024 ** 3, "The request body is larger than the 2 GB limit"],
    [100, "The request body is larger than the 100 bytes limit"],
  ])("%i bytes", (limit, message) => {
    expect(bodyTooLargeMessage(limit)).toBe(message);
  });
});
