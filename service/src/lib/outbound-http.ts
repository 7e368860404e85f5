import http from "node:http";
import https from "node:https";

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM certificate(s) to trust for an https URL instead of the system store; ignored for http. */
  caCert?: string | undefined;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  text: string;
}

/** The peer could not be reached or did not answer in time (no HTTP status to speak of). */
export class OutboundUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`No answer from ${url}`, { cause });
    this.name = "OutboundUnreachableError";
  }
}

/**
 * Node refused to write the request, so nothing was sent: a URL that does not parse, a method or
 * header value HTTP does not allow (a control character in a token carried in a header), a CA
 * certificate it cannot read. Input of the caller or of the method's configuration, not the peer.
 */
export class OutboundInvalidRequestError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`A request to ${url} could not be written`, { cause });
    this.name = "OutboundInvalidRequestError";
  }
}

const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * One request to a peer a sign-in depends on (Kubernetes API, OIDC issuer, STS). node:https is
 * used rather than fetch because a configured CA certificate must be trusted per request.
 * Answers of any status are returned; only a transport failure or timeout throws, or a request
 * that cannot be written at all.
 */
export function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    return Promise.reject(new OutboundInvalidRequestError(request.url, error));
  }
  const secure = url.protocol === "https:";
  if (!secure && url.protocol !== "http:") {
    return Promise.reject(new OutboundUnreachableError(request.url, new Error(`unsupported scheme ${url.protocol}`)));
  }
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const options: https.RequestOptions = {
    method: request.method ?? "GET",
    headers: { ...request.headers, ...(body && { "content-length": String(body.length) }) },
    timeout: request.timeoutMs ?? 10_000,
    ...(secure && request.caCert && { ca: request.caCert }),
  };
  return new Promise((resolve, reject) => {
    const fail = (cause: unknown) => reject(new OutboundUnreachableError(request.url, cause));
    let req: http.ClientRequest;
    try {
      req = (secure ? https : http).request(url, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new Error("response too large"));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", fail);
      });
    } catch (error) {
      reject(new OutboundInvalidRequestError(request.url, error));
      return;
    }
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", fail);
    req.end(body);
  });
}
