import { type ErrorBody, errorNames } from "@keyhold/contract";
import { bodyTooLargeMessage, drainOversizedBody } from "@keyhold/contract/runtime-server";
import type { FastifyError, FastifyInstance } from "fastify";
import { AppError, ValidationError } from "../domain/errors.ts";

/** Our wording for the client errors Fastify raises before a handler runs. */
const fastifyClientErrors: Record<string, { error: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    error: errorNames.unsupportedMediaType,
    message: "Unsupported content type: send request bodies as application/json",
  },
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

function isBodyTooLarge(error: unknown): boolean {
  return (error as Partial<FastifyError> | null)?.code === "FST_ERR_CTP_BODY_TOO_LARGE";
}

/** What the mapping needs to know of the request beyond the error. */
export interface ErrorContext {
  reqId: string;
  /** The route's body limit in bytes, named in a 413. */
  bodyLimit: number;
}

export interface MappedError {
  statusCode: number;
  body: ErrorBody;
  /** Whether the error is ours to fix (logged at error level) rather than the caller's. */
  internal: boolean;
}

/** The one place where errors become the wire's error body. */
export function toErrorBody(error: unknown, { reqId, bodyLimit }: ErrorContext): MappedError {
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
  if (isBodyTooLarge(error)) {
    return {
      statusCode: 413,
      body: { reqId, statusCode: 413, message: bodyTooLargeMessage(bodyLimit), error: errorNames.payloadTooLarge },
      internal: false,
    };
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
  app.setErrorHandler(async (error, request, reply) => {
    // Read first, so that the client is done sending and sees the 413, not a reset connection.
    if (isBodyTooLarge(error)) await drainOversizedBody(request.raw, reply);
    const mapped = toErrorBody(error, { reqId: request.id, bodyLimit: request.routeOptions.bodyLimit });
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
