import type { FastifyBaseLogger } from "fastify";
import { type Dispatcher, Pool } from "undici";
import { badGateway, gatewayTimeout, HttpError } from "../errors.ts";

export interface UpstreamRequest {
  method: string;
  /** A path built by `buildPath` from a contract template, plus an optional query string. */
  pathAndQuery: string;
  /** The bearer token; absent for the endpoints that take credentials in the body (sign-in, renewal). */
  accessToken?: string | undefined;
  /**
   * The browser's address, sent as the only X-Forwarded-For entry so that the service checks
   * trusted IPs against it (when it trusts this BFF as a proxy). Without it none is sent.
   */
  clientIp?: string;
  body?: unknown;
  /** The contract endpoint, for the log only. */
  endpoint?: string;
  /** The BFF request's id, sent as X-Request-Id so that the service logs the same id. */
  requestId?: string;
}

export interface UpstreamResponse {
  status: number;
  /** The JSON text exactly as the upstream sent it ("" when it sent no body). */
  text: string;
}

export interface UpstreamOptions {
  origin: string;
  timeoutMs: number;
}

/** How the BFF reaches the upstream service; one per app, closed with it. */
export interface Upstream {
  readonly timeoutMs: number;
  call(request: UpstreamRequest, log: FastifyBaseLogger): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** undici's codes for a deadline that passed: connecting, waiting for the headers, or between body chunks. */
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * The upstream through a pool of keep-alive connections (undici), so a request pays neither
 * a TCP handshake nor a timer of its own: the deadline is the pool's headers timeout (the
 * answer must begin within it once the request is sent) and body timeout (the answer may
 * not pause longer), both on undici's shared coarse timer, plus the connect timeout.
 *
 * Only the headers built here are sent: the bearer token, Accept, the browser's address as
 * X-Forwarded-For, the request's id as X-Request-Id and (with a body) the JSON content type;
 * undici adds Host, Connection and Content-Length. Nothing the browser sent is passed on.
 * Redirects are not followed. Refused or broken connections become 502, a passed deadline 504.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const pool = new Pool(options.origin, {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs },
  });
  return {
    timeoutMs: options.timeoutMs,
    call: (request, log) => callUpstream(pool, options.timeoutMs, request, log),
    close: () => pool.close(),
  };
}

async function callUpstream(
  pool: Pool,
  timeoutMs: number,
  request: UpstreamRequest,
  log: FastifyBaseLogger,
): Promise<UpstreamResponse> {
  const hasBody = request.body !== undefined;
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.accessToken !== undefined) headers.authorization = `Bearer ${request.accessToken}`;
  if (request.clientIp) headers["x-forwarded-for"] = request.clientIp;
  if (request.requestId) headers["x-request-id"] = request.requestId;
  if (hasBody) headers["content-type"] = "application/json";
  try {
    const { status, type, text } = await send(pool, {
      method: request.method as Dispatcher.HttpMethod,
      path: request.pathAndQuery,
      headers,
      body: hasBody ? JSON.stringify(request.body) : null,
    });
    if (text !== "" && !JSON_TYPE.test(type)) {
      log.warn(
        { endpoint: request.endpoint, upstreamStatus: status, contentType: type },
        "upstream answered without JSON",
      );
      throw badGateway(`The secrets service answered with an unexpected response (HTTP ${status}).`);
    }
    if (status >= 300 && status < 400) {
      log.warn({ endpoint: request.endpoint, upstreamStatus: status }, "upstream answered with a redirect");
      throw badGateway(`The secrets service answered with an unexpected redirect (HTTP ${status}).`);
    }
    return { status, text };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const reason = describeNetworkError(error);
    if (TIMEOUT_CODES.has(reason)) {
      log.warn({ endpoint: request.endpoint, timeoutMs, reason }, "upstream deadline passed");
      const seconds = Number((timeoutMs / 1000).toFixed(1));
      throw gatewayTimeout(`The secrets service did not answer within ${seconds} s. Try again in a moment.`);
    }
    log.warn({ endpoint: request.endpoint, reason }, "upstream unreachable");
    throw badGateway("The secrets service could not be reached or broke off the connection. Try again in a moment.");
  }
}

interface RawAnswer {
  status: number;
  /** The Content-Type header ("" without one). */
  type: string;
  text: string;
}

const CONTENT_TYPE = "content-type";

/**
 * One request on the pool through undici's handler interface: the answer is collected as
 * it arrives, without a stream object and its promises per response. The pool's timeouts
 * apply as with `request`; any failure rejects with undici's error.
 */
function send(pool: Pool, options: Dispatcher.DispatchOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let type = "";
    const chunks: Buffer[] = [];
    pool.dispatch(options, {
      onConnect() {},
      onHeaders(statusCode, rawHeaders) {
        // Called again after a 1xx informational answer: the last call is the answer.
        status = statusCode;
        let found = 0;
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const name = rawHeaders[i];
          if (name?.length === CONTENT_TYPE.length && name.toString("latin1").toLowerCase() === CONTENT_TYPE) {
            type = rawHeaders[i + 1]?.toString("latin1") ?? "";
            found++;
          }
        }
        // No type, or two of them, is no JSON type.
        if (found !== 1) type = "";
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        const text =
          chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
        resolve({ status, type, text });
      },
      onError: reject,
    });
  });
}

/** A short code for the log (ECONNREFUSED, UND_ERR_SOCKET…), never a URL with credentials. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  if ("code" in error && typeof error.code === "string") return error.code;
  const cause = error.cause;
  if (cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string") return cause.code;
  return error.name;
}
