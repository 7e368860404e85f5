import { type ErrorBody, errorNames } from "@keyhold/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import { AppError, ValidationError } from "../domain/errors.ts";

/** Not in the contract's list: Fastify's own body-size refusal. */

/** Our wording for the client errors Fastify raises before a handler runs. */
const fastifyClientErrors: Record<string, { error: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    error: errorNames.unsupportedMediaType,
    message: "Unsupported content type: send request bodies as application/json",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { error: errorNames.payloadTooLarge, message: "The request body is too large" },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    error: errorNames.badRequest,
    message: "The request body is not valid JSON, or it holds a forbidden key such as __proto__",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    error: errorNames.badRequest,
    message: "The request body is empty although its content type is application/json",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    error: errorNames.badRequest,
    message: "The Content-Length header does not match the body",
  },
};

function isFastifyClientError(error: unknown): error is FastifyError & { statusCode: number } {
  const status = (error as Partial<FastifyError> | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500;
}

export interface MappedError {
  statusCode: number;
  body: ErrorBody;
  /** Whether the error is ours to fix (logged at error level) rather than the caller's. */
  internal: boolean;
}

/** The one place where errors become the wire's error body. */
export function toErrorBody(error: unknown, reqId: string): MappedError {
  if (error instanceof ValidationError) {
    return {
      statusCode: 422,
      body: { reqId, statusCode: 422, message: error.issues, error: errorNames.validation },
      internal: false,
    };
  }
  if (error instanceof AppError) {
    const body: ErrorBody = { reqId, statusCode: error.statusCode, message: error.message, error: error.errorName };
    if (error.details !== undefined) body.details = error.details;
    return { statusCode: error.statusCode, body, internal: false };
  }
  if (isFastifyClientError(error)) {
    const known = fastifyClientErrors[error.code];
    // JSON syntax errors and prototype poisoning arrive as plain 400s from the JSON parser.
    const fallback =
      error.statusCode === 400
        ? { error: errorNames.badRequest, message: `The request could not be read: ${error.message}` }
        : { error: errorNames.badRequest, message: error.message };
    const { error: name, message } = known ?? fallback;
    return {
      statusCode: error.statusCode,
      body: { reqId, statusCode: error.statusCode, message, error: name },
      internal: false,
    };
  }
  return {
    statusCode: 500,
    body: { reqId, statusCode: 500, message: "Something went wrong", error: errorNames.internal },
    internal: true,
  };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toErrorBody(error, request.id);
    if (mapped.internal) request.log.error({ err: error }, "Request failed");
    else request.log.info({ statusCode: mapped.statusCode, error: mapped.body.error }, "Request refused");
    return reply.code(mapped.statusCode).send(mapped.body);
  });

  // Infisical's own answer for a route it does not have, key for key (clients tell it from a
  // missing resource by this shape: no reqId, "Not Found" with a space).
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      message: `Route ${request.method}:${request.url.split("?")[0]} not found`,
      error: "Not Found",
      statusCode: 404,
    }),
  );
}
