import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface PeerAnswer {
  status?: number;
  body: unknown;
  contentType?: string;
}

export interface LoopbackPeer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received so far, oldest first. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for a protocol peer (Kubernetes API, OIDC issuer,
 * STS); `answer` decides each reply from the request. Strings are sent as they are, anything
 * else as JSON.
 */
export async function startLoopbackPeer(
  answer: (request: ReceivedRequest) => PeerAnswer | Promise<PeerAnswer>,
): Promise<LoopbackPeer> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      void Promise.resolve(answer(request)).then((reply) => {
        const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, {
          "content-type": reply.contentType ?? (typeof reply.body === "string" ? "text/xml" : "application/json"),
        });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An address on loopback where nothing listens: a port just released by a closed server. */
export async function unusedLoopbackUrl(): Promise<string> {
  const peer = await startLoopbackPeer(() => ({ body: {} }));
  await peer.close();
  return peer.url;
}
