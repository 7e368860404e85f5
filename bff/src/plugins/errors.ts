import { drainOversizedBody } from "@keyhold/contract/runtime-server";
import type { FastifyError, FastifyInstance } from "fastify";
import { errorNameForStatus, HttpError, payloadTooLarge } from "../errors.ts";

const SOMETHING_WENT_WRONG = "Something went wrong. Try again, and check the BFF log if it keeps happening.";

function statusOf(error: FastifyError): number {
  const status = error.statusCode;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
}

/** Whatever fails, the browser gets the one envelope; 5xx messages never carry internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(error.toBody(request.id));
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // Read first, so that the client is done sending and sees the 413, not a reset connection.
      await drainOversizedBody(request.raw, reply);
      return reply.code(413).send(payloadTooLarge(request.routeOptions.bodyLimit).toBody(request.id));
    }
    const statusCode = statusOf(error);
    let message = error.message;
    if (statusCode >= 500) {
      request.log.error({ err: error }, "request failed");
      message = SOMETHING_WENT_WRONG;
    } else if (error instanceof SyntaxError) {
      // The parser's message quotes the body, which may hold a token.
      message = "The request body is not valid JSON.";
    }
    return reply
      .code(statusCode)
      .send({ reqId: request.id, statusCode, message, error: errorNameForStatus(statusCode) });
  });
}
