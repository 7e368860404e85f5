import {
  buildPath,
  type Endpoint,
  errorNames,
  NoBody,
  NoParams,
  PathParamError,
  pathParamNames,
} from "@keyhold/contract";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { HttpError, refuseUnstorableText, validationFailed } from "../errors.ts";

export interface UpstreamInput {
  pathAndQuery: string;
  body: unknown;
  /** The parsed path parameters (for an older server's path to the same operation). */
  params: Record<string, unknown>;
  /** The query string, with its "?", or "". */
  search: string;
}

/** Reads one endpoint's input from a request; prepared once per endpoint by `prepareInput`. */
export type InputReader = (request: FastifyRequest) => UpstreamInput;

function parse(schema: z.ZodType, value: unknown): unknown {
  refuseUnstorableText(value);
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/**
 * The validated query as a query string. A field the schema turns into a structure (a comma list
 * into an array, `k=v,k2=v2` into a record) goes on as the text the browser sent, which is what
 * the upstream reads: the structure is the schema's reading of it, not another wire form.
 */
function toSearchParams(query: Record<string, unknown>, raw: Record<string, unknown>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const sent = raw[key];
    const structured = (Array.isArray(value) && typeof sent === "string") || (isRecord(value) && sent !== undefined);
    const wire = structured ? sent : value;
    for (const item of Array.isArray(wire) ? wire : [wire]) {
      if (isScalar(item)) search.append(key, String(item));
    }
  }
  return search;
}

function pathFrom(template: string, params: unknown): string {
  try {
    return buildPath(template, isRecord(params) ? params : {});
  } catch (error) {
    if (error instanceof PathParamError) throw new HttpError(400, errorNames.badRequest, error.message);
    throw error;
  }
}

/**
 * Prepares, once per endpoint, what each request then does: validate against the contract
 * endpoint and derive the upstream path from the endpoint's template and the parsed values
 * only; the incoming raw path is never reused. Unknown query and body fields are dropped by
 * the schemas. An endpoint without path parameters always calls its template as is; one
 * without a query never sends a query string (an empty schema would drop every field); one
 * without a body still refuses a request that carries one, with the same 422.
 */
export function prepareInput(endpoint: Endpoint): InputReader {
  const template = endpoint.path;
  const paramsSchema = pathParamNames(template).length === 0 ? undefined : endpoint.params;
  const querySchema = endpoint.query === NoParams ? undefined : endpoint.query;
  const bodySchema = endpoint.body;
  const noBody = bodySchema === NoBody;

  return (request) => {
    const parsed = paramsSchema ? parse(paramsSchema, request.params ?? {}) : {};
    const params = isRecord(parsed) ? parsed : {};
    const path = paramsSchema ? pathFrom(template, params) : template;
    let search = "";
    if (querySchema) {
      const query = parse(querySchema, request.query ?? {});
      const raw = isRecord(request.query) ? request.query : {};
      const text = toSearchParams(isRecord(query) ? query : {}, raw).toString();
      if (text) search = `?${text}`;
    }
    const body = noBody && request.body === undefined ? undefined : parse(bodySchema, request.body);
    return { pathAndQuery: path + search, body, params, search };
  };
}
