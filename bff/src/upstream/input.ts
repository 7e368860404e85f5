import { buildPath, type Endpoint, errorNames, PathParamError } from "@keyhold/contract";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { HttpError, validationFailed } from "../errors.ts";

export interface UpstreamInput {
  pathAndQuery: string;
  body: unknown;
}

function parse(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toSearchParams(query: Record<string, unknown>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
        search.append(key, String(item));
      }
    }
  }
  return search;
}

/**
 * Validates a request against its contract endpoint and derives the upstream
 * path from the endpoint's template and the parsed values only; the incoming
 * raw path is never reused. Unknown query and body fields are dropped by the schemas.
 */
export function upstreamInput(endpoint: Endpoint, request: FastifyRequest): UpstreamInput {
  const params = parse(endpoint.params, request.params ?? {});
  const query = parse(endpoint.query, request.query ?? {});
  const body = parse(endpoint.body, request.body);
  let path: string;
  try {
    path = buildPath(endpoint.path, isRecord(params) ? params : {});
  } catch (error) {
    if (error instanceof PathParamError) throw new HttpError(400, errorNames.badRequest, error.message);
    throw error;
  }
  const search = toSearchParams(isRecord(query) ? query : {}).toString();
  return { pathAndQuery: search ? `${path}?${search}` : path, body };
}
