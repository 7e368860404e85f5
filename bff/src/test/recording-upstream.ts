import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The raw request target exactly as it arrived on the socket. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer: stands in for a service that hangs. */
  hang?: boolean;
}

export type Responder = (request: RecordedRequest) => CannedResponse;

/**
 * A real HTTP server on 127.0.0.1 standing in for any Infisical-compatible
 * base URL: it records every request and answers what the test asks for.
 */
export interface RecordingUpstream {
  origin: string;
  requests: RecordedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startRecordingUpstream(initial: Responder = () => ({ status: 200, body: {} })) {
  let responder = initial;
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: await readBody(req) };
    requests.push(recorded);
    const answer = responder(recorded);
    if (answer.hang) {
      hanging.add(res);
      return;
    }
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...(text ? { "content-type": "application/json; charset=utf-8" } : {}),
      ...answer.headers,
    });
    res.end(text);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  const upstream: RecordingUpstream = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respond: (next) => {
      responder = next;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  return upstream;
}
