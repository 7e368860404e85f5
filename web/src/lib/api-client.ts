import {
  type AnyEndpoint,
  type BodyOf,
  buildPath,
  CSRF_HEADER,
  CSRF_VALUE,
  ErrorBodySchema,
  type ParamsOf,
  type PermissionNote,
  type QueryOf,
  type ResponseOf,
  SERVER_FEATURES_HEADER,
} from "@keyhold/contract";
import type { z } from "zod";
import { ApiError } from "./api-error";

type Slot<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What a call needs: params, query and body, each required only when the endpoint has them. */
export type CallInput<E extends AnyEndpoint> = Slot<"params", ParamsOf<E>> &
  Slot<"query", QueryOf<E>> &
  Slot<"body", BodyOf<E>>;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

interface RawRequest<S extends z.ZodType> {
  method: string;
  url: string;
  body?: unknown;
  schema: S;
  permission?: PermissionNote | undefined;
  signal?: AbortSignal | undefined;
  /** An answer to this very request that is already on its way (the early session check). */
  sent?: Promise<Response> | undefined;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

async function errorFrom(response: Response, permission: PermissionNote | undefined): Promise<ApiError> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (parsed.success) return new ApiError(parsed.data, permission);
  return new ApiError(
    {
      reqId: response.headers.get("x-request-id") ?? "",
      statusCode: response.status,
      error: response.statusText || "HttpError",
      message: `The server answered ${response.status} without an error description`,
    },
    permission,
  );
}

type FeaturesListener = (stamp: string) => void;
let featuresListener: FeaturesListener | undefined;

/**
 * Hears what each answer says the server lacks (the BFF's `keyhold-unavailable-features`), so
 * the app can read the session again when that changes. One listener: the app's.
 */
export function listenForServerFeatures(listener: FeaturesListener | undefined): void {
  featuresListener = listener;
}

/** Sends one JSON request to the BFF (same origin) and validates the answer against `schema`. */
export async function request<S extends z.ZodType>(req: RawRequest<S>): Promise<z.output<S>> {
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_VALUE, accept: "application/json" };
  if (req.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await (req.sent ??
      fetch(req.url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        credentials: "same-origin",
        cache: "no-store",
        signal: req.signal,
      }));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError({
      reqId: "",
      statusCode: 0,
      error: "NetworkError",
      message: "Could not reach the Keyhold server. Check your connection and try again.",
    });
  }
  const stamp = response.headers.get(SERVER_FEATURES_HEADER);
  if (stamp !== null) featuresListener?.(stamp);
  if (!response.ok) throw await errorFrom(response, req.permission);

  const json: unknown = response.status === 204 ? undefined : await response.json();
  const parsed = req.schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({
      reqId: response.headers.get("x-request-id") ?? "",
      statusCode: response.status,
      error: "UnexpectedResponse",
      message: "The server's answer did not have the expected shape",
    });
  }
  return parsed.data;
}

/** Calls one contract endpoint. The path is the contract's, its parameters percent-encoded. */
export function call<E extends AnyEndpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: RequestOptions = {},
): Promise<ResponseOf<E>> {
  const { params, query, body } = input as { params?: object; query?: object; body?: unknown };
  const url = buildPath(endpoint.path, { ...params }) + queryString(query as Record<string, unknown> | undefined);
  return request({
    method: endpoint.method,
    url,
    body,
    schema: endpoint.response as z.ZodType<ResponseOf<E>>,
    permission: endpoint.permission,
    signal: options.signal,
  });
}
