import { vi } from "vitest";

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** Replaces `fetch` with one that records each request and answers from `respond`. */
export function mockFetch(respond: (req: RecordedRequest) => Response | Promise<Response>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req: RecordedRequest = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : undefined,
    };
    requests.push(req);
    return respond(req);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { requests, fetchMock };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function errorBody(statusCode: number, error: string, message: unknown, details?: unknown) {
  return { reqId: "req-123", statusCode, error, message, ...(details === undefined ? {} : { details }) };
}
