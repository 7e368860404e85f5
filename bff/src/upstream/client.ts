import { Readable } from "node:stream";
import { CONTRACT_REVISION_HEADER } from "@keyhold/contract/revision";
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
  /**
   * The contract revision of this BFF, when the caller can take a successful answer unread: one
   * that says it was shaped by that revision (CONTRACT_REVISION_HEADER) is then `shaped`.
   */
  passThrough?: string | undefined;
}

export interface UpstreamResponse {
  status: number;
  /** The JSON text exactly as the upstream sent it ("" when it sent no body, or when it streams). */
  text: string;
  /**
   * A successful JSON answer of the caller's contract revision (see `passThrough`): not checked
   * here beyond that; a long one comes as a `stream` of its bytes as they arrive, not as `text`.
   */
  shaped?: true;
  stream?: Readable;
  /** The streamed answer's length in bytes, when the upstream said it. */
  length?: number | undefined;
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
    const answer = await send(
      pool,
      {
        method: request.method as Dispatcher.HttpMethod,
        path: request.pathAndQuery,
        headers,
        body: hasBody ? JSON.stringify(request.body) : null,
      },
      request.passThrough,
    );
    if (answer.shaped) return answer;
    const { status, type, text } = answer;
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

interface RawAnswer extends UpstreamResponse {
  /** The Content-Type header ("" without one). */
  type: string;
}

const CONTENT_TYPE = "content-type";
const CONTENT_LENGTH = "content-length";
/** A shaped answer up to this length is collected and handed on whole; a longer one streams. */
const WHOLE_UP_TO = 64 * 1024;

/** Whether a raw header name (any case) is `name`, which is lower case. */
function isHeader(raw: Buffer | undefined, name: string): boolean {
  return raw !== undefined && raw.length === name.length && raw.toString("latin1").toLowerCase() === name;
}

/**
 * A shaped answer's bytes as a stream, read as undici delivers them: when the reader falls behind,
 * undici stops reading the socket until it asks for more; a reader that gives up aborts the
 * request.
 */
class RawBody extends Readable {
  constructor(
    private readonly resumeUpstream: () => void,
    private readonly abortUpstream: ((error: Error) => void) | undefined,
  ) {
    super();
  }

  override _read(): void {
    this.resumeUpstream();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.readableEnded) this.abortUpstream?.(error ?? new Error("the answer was not read to its end"));
    callback(error);
  }
}

/**
 * One request on the pool through undici's handler interface: the answer is collected as
 * it arrives, without a stream object and its promises per response. The pool's timeouts
 * apply as with `request`; any failure rejects with undici's error.
 *
 * With `passThrough` (the caller's contract revision), a 2xx JSON answer carrying that revision
 * is `shaped`: up to WHOLE_UP_TO bytes it resolves once complete, as text; a longer (or unknown)
 * length resolves as soon as the headers are in, with a stream of the body.
 */
function send(pool: Pool, options: Dispatcher.DispatchOptions, passThrough: string | undefined): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let type = "";
    let length: number | undefined;
    let stream: RawBody | undefined;
    let whole = false;
    let abort: ((error: Error) => void) | undefined;
    const chunks: Buffer[] = [];
    pool.dispatch(options, {
      onConnect(abortRequest) {
        abort = abortRequest;
      },
      onHeaders(statusCode, rawHeaders, resume) {
        // Called again after a 1xx informational answer: the last call is the answer.
        status = statusCode;
        let found = 0;
        let revision: string | undefined;
        let lengthText: string | undefined;
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const name = rawHeaders[i];
          if (isHeader(name, CONTENT_TYPE)) {
            type = rawHeaders[i + 1]?.toString("latin1") ?? "";
            found++;
          } else if (passThrough !== undefined && isHeader(name, CONTRACT_REVISION_HEADER)) {
            revision = rawHeaders[i + 1]?.toString("latin1");
          } else if (passThrough !== undefined && isHeader(name, CONTENT_LENGTH)) {
            lengthText = rawHeaders[i + 1]?.toString("latin1");
          }
        }
        // No type, or two of them, is no JSON type.
        if (found !== 1) type = "";
        if (
          passThrough !== undefined &&
          revision === passThrough &&
          statusCode >= 200 &&
          statusCode < 300 &&
          JSON_TYPE.test(type)
        ) {
          length = lengthText !== undefined && /^\d+$/.test(lengthText) ? Number(lengthText) : undefined;
          if (length !== undefined && length <= WHOLE_UP_TO) {
            whole = true;
          } else {
            stream = new RawBody(resume, abort);
            resolve({ status, type, text: "", shaped: true, stream, length });
          }
        }
        return true;
      },
      onData(chunk) {
        if (stream) return stream.push(chunk);
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        if (stream) {
          stream.push(null);
          return;
        }
        const text =
          chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
        resolve(whole ? { status, type, text, shaped: true } : { status, type, text });
      },
      onError(error) {
        // Once the stream is handed out, its reader learns of the failure.
        if (stream) stream.destroy(error);
        else reject(error);
      },
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
