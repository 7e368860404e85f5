/**
 * A stand-in for a real Infisical server that answers from recorded responses: each file of a
 * set recorded from a real server (`@keyhold/fixtures`) holds one request and the status
 * and body the real server gave. A request is answered with the recording whose method and path
 * match, ids (UUIDs) matching any id; an exact path wins over a wildcard one, and among equals
 * the first successful recording, else the first. Anything else is the server's own 404.
 *
 * Run alone: `node --conditions=@keyhold/source --import tsx bff/src/replay/replay-upstream.ts <recordings folder> <port>`.
 */
import { createServer, type Server } from "node:http";
import path from "node:path";
import { loadRecordings, type Recording } from "@keyhold/fixtures";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sameShape(recorded: string, asked: string): boolean {
  const a = recorded.split("/");
  const b = asked.split("/");
  return (
    a.length === b.length && a.every((segment, i) => segment === b[i] || (UUID.test(segment) && UUID.test(b[i] ?? "")))
  );
}

/** The recording that answers a request, or undefined. */
export function findRecording(
  recordings: readonly Recording[],
  method: string,
  pathname: string,
): Recording | undefined {
  const sameMethod = recordings.filter((r) => r.method === method);
  for (const candidates of [
    sameMethod.filter((r) => r.path === pathname),
    sameMethod.filter((r) => sameShape(r.path, pathname)),
  ]) {
    const chosen = candidates.find((r) => r.status < 300) ?? candidates[0];
    if (chosen) return chosen;
  }
  return undefined;
}

export interface ReplayUpstream {
  server: Server;
  url: string;
  /** "METHOD /path" of every request answered, in order. */
  requests: string[];
  /** "METHOD /path?query" of the same requests, for tests of what the query carried. */
  urls: string[];
}

export function startReplayUpstream(dir: string, port = 0): Promise<ReplayUpstream> {
  const recordings = loadRecordings(dir);
  const requests: string[] = [];
  const urls: string[] = [];
  const server = createServer((request, response) => {
    // Read and drop the request body, then answer.
    request.resume();
    request.on("end", () => {
      const pathname = new URL(request.url ?? "/", "http://replay").pathname;
      const method = request.method ?? "GET";
      requests.push(`${method} ${pathname}`);
      urls.push(`${method} ${request.url ?? "/"}`);
      const send = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        response.end(text);
      };
      if (pathname === "/api/status") return send(200, { message: "Ok" });
      if (!request.headers.authorization) {
        return send(401, { statusCode: 401, message: "Token missing", error: "UnauthorizedError" });
      }
      const recording = findRecording(recordings, method, pathname);
      if (!recording) {
        return send(404, { message: `Route ${method}:${pathname} not found`, error: "Not Found", statusCode: 404 });
      }
      send(recording.status, recording.body);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolve({ server, url: `http://127.0.0.1:${actual}`, requests, urls });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, port] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: replay-upstream.ts <recordings folder> [port]");
    process.exit(2);
  }
  const { url } = await startReplayUpstream(path.resolve(dir), Number(port ?? 0));
  console.error(`replaying ${dir} on ${url}`);
}
