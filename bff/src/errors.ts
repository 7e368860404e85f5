import type { z } from "zod";
import { type ErrorBody, errorNames, unstorableTextIssues, type ValidationIssue } from "@keyhold/contract";
import { bodyTooLargeMessage } from "@keyhold/contract/runtime-server";

/** An error whose status, name and message are safe to show to the browser. */
export class HttpError extends Error {
  override name = "HttpError";

  constructor(
    readonly statusCode: number,
    readonly error: string,
    /** A sentence, or the validation issues of a 422. */
    readonly reason: string | ValidationIssue[],
    readonly details?: unknown,
  ) {
    super(typeof reason === "string" ? reason : "Validation failed");
  }

  toBody(reqId: string): ErrorBody {
    const body: ErrorBody = { reqId, statusCode: this.statusCode, message: this.reason, error: this.error };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const unauthorized = (message = "Sign in to continue") => new HttpError(401, errorNames.unauthorized, message);

export const notFound = (message: string) => new HttpError(404, errorNames.notFound, message);

/** 422 with zod's issues, as the service answers; inputs are never echoed. */
export function validationFailed(error: z.ZodError): HttpError {
  const issues = error.issues.map(({ path, ...rest }) => ({
    ...rest,
    path: path.filter((p): p is string | number => typeof p !== "symbol"),
  }));
  return new HttpError(422, errorNames.validation, issues);
}

/**
 * The service's own refusal of text no database can store (NUL, an unpaired surrogate), at the
 * BFF's edge: an upstream on PostgreSQL that lacks the check (Infisical) would answer 500.
 */
export function refuseUnstorableText(value: unknown): void {
  const issues = unstorableTextIssues(value);
  if (issues.length > 0) throw new HttpError(422, errorNames.validation, issues);
}

export const badGateway = (message: string) => new HttpError(502, errorNames.badGateway, message);

/** 413 naming the limit the body went over. */
export const payloadTooLarge = (limitBytes: number) =>
  new HttpError(413, errorNames.payloadTooLarge, bodyTooLargeMessage(limitBytes));

export const gatewayTimeout = (message: string) => new HttpError(504, errorNames.gatewayTimeout, message);

/** The `error` name for statuses Fastify or its plugins raise on their own. */
export function errorNameForStatus(status: number): string {
  switch (status) {
    case 400:
      return errorNames.badRequest;
    case 401:
      return errorNames.unauthorized;
    case 403:
      return errorNames.forbidden;
    case 404:
      return errorNames.notFound;
    case 413:
      return errorNames.payloadTooLarge;
    case 415:
      return errorNames.unsupportedMediaType;
    case 422:
      return errorNames.validation;
    case 429:
      return errorNames.rateLimit;
    default:
      return status >= 500 ? errorNames.internal : errorNames.badRequest;
  }
}
