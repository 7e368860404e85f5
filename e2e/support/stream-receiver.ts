import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface StreamReceiver {
  /** The URL a stream is pointed at (loopback, a path of its own). */
  url: string;
  /** Every POST it got, in order: the ping on create and update, then the events. */
  received: Delivery[];
  /** The events it got, flattened: a batch (a JSON array) counts each of its rows. */
  events(): Record<string, unknown>[];
  close(): Promise<void>;
}

const isPing = (body: unknown) =>
  typeof body === "object" && body !== null && (body as { ping?: unknown }).ping === "ok";

/**
 * An HTTP endpoint in the test process standing in for a team's log pipeline: it answers
 * `status` (200 unless told otherwise) to every POST and keeps what it got.
 */
export async function startStreamReceiver(status = 200): Promise<StreamReceiver> {
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      received.push({ headers: request.headers, body });
      const text = JSON.stringify(status < 300 ? { ok: true } : { error: "receiver is down" });
      response.writeHead(status, { "content-type": "application/json" }).end(text);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/audit-stream`,
    received,
    events: () =>
      received
        .filter((delivery) => !isPing(delivery.body))
        .flatMap((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]))
        .filter((row): row is Record<string, unknown> => typeof row === "object" && row !== null),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

export { isPing };
