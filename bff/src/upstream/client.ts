import type { FastifyBaseLogger } from "fastify";
import { badGateway, gatewayTimeout, HttpError } from "../errors.ts";

export interface UpstreamRequest {
  method: string;
  /** A path built by `buildPath` from a contract template, plus an optional query string. */
  pathAndQuery: string;
  accessToken: string;
  body?: unknown;
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

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Calls the upstream service. Only the headers built here are sent: the bearer
 * token, Accept and (with a body) the JSON content type. Refused or broken
 * connections become 502, answers slower than the deadline 504.
 */
export async function callUpstream(
  options: UpstreamOptions,
  request: UpstreamRequest,
  log: FastifyBaseLogger,
): Promise<UpstreamResponse> {
  const url = `${options.origin}${request.pathAndQuery}`;
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Bearer ${request.accessToken}`,
  };
  const hasBody = request.body !== undefined;
  if (hasBody) headers["content-type"] = "application/json";
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    if (text !== "" && !JSON_TYPE.test(type)) {
      log.warn({ upstreamStatus: response.status, contentType: type }, "upstream answered without JSON");
      throw badGateway(`The secrets service answered with an unexpected response (HTTP ${response.status}).`);
    }
    if (response.status >= 300 && response.status < 400) {
      log.warn({ upstreamStatus: response.status }, "upstream answered with a redirect");
      throw badGateway(`The secrets service answered with an unexpected redirect (HTTP ${response.status}).`);
    }
    return { status: response.status, text };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof Error && error.name === "TimeoutError") {
      log.warn({ timeoutMs: options.timeoutMs }, "upstream deadline passed");
      const seconds = Number((options.timeoutMs / 1000).toFixed(1));
      throw gatewayTimeout(`The secrets service did not answer within ${seconds} s. Try again in a moment.`);
    }
    log.warn({ reason: describeNetworkError(error) }, "upstream unreachable");
    throw badGateway("The secrets service could not be reached or broke off the connection. Try again in a moment.");
  }
}

/** A short code for the log (ECONNREFUSED, ECONNRESET…), never a URL with credentials. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  const cause = error.cause;
  if (cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string") return cause.code;
  return error.name;
}
