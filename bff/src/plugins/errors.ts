import type { FastifyError, FastifyInstance } from "fastify";
import { errorNameForStatus, HttpError } from "../errors.ts";

const SOMETHING_WENT_WRONG = "Something went wrong. Try again, and check the BFF log if it keeps happening.";

function statusOf(error: FastifyError): number {
  const status = error.statusCode;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
}

/** Whatever fails, the browser gets the one envelope; 5xx messages never carry internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(error.toBody(request.id));
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
