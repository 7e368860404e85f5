import { errorNames } from "@keyhold/contract";
import type { z } from "zod";

/**
 * Every error the domain throws on purpose. The error handler maps these to the one
 * error body; anything else becomes a 500 with no internals.
 */
export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  abstract readonly errorName: string;
  readonly details: unknown;

  constructor(message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class BadRequestError extends AppError {
  readonly statusCode = 400;
  readonly errorName = errorNames.badRequest;
}

export class UnauthorizedError extends AppError {
  readonly statusCode = 401;
  readonly errorName = errorNames.unauthorized;
}

/** A bearer token that is not a valid, unexpired token signed by this service. */
export class TokenError extends AppError {
  readonly statusCode = 403;
  readonly errorName = errorNames.token;
}

/** The actor's rules do not allow an action on a subject; `details` holds the relevant rules. */
export class PermissionDeniedError extends AppError {
  readonly statusCode = 403;
  readonly errorName = errorNames.permissionDenied;
}

/** The actor would grant or act on more privilege than they hold. */
export class PermissionBoundaryError extends AppError {
  readonly statusCode = 403;
  readonly errorName = errorNames.permissionBoundary;
}

export class ForbiddenError extends AppError {
  readonly statusCode = 403;
  readonly errorName = errorNames.forbidden;
}

export class NotFoundError extends AppError {
  readonly statusCode = 404;
  readonly errorName = errorNames.notFound;
}

/** A peer this service depends on (a Kubernetes API, an OIDC issuer, STS) could not be reached. */
export class BadGatewayError extends AppError {
  readonly statusCode = 502;
  readonly errorName = errorNames.badGateway;
}

export class NotImplementedError extends AppError {
  readonly statusCode = 501;
  readonly errorName = errorNames.notImplemented;
}

/** A request that failed its contract schema; the body's `message` is the issue list. */
export class ValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super("Request validation failed");
    this.name = "ValidationError";
  }
}

/**
 * A peer (an OIDC provider, a Kubernetes API, STS) answered, and refused: the login answers 401
 * as any refusal; the peer's HTTP status is kept for a dry run to show, never sent otherwise.
 */
export class PeerRefusedError extends UnauthorizedError {
  constructor(
    message: string,
    readonly peerStatus: number,
  ) {
    super(message);
  }
}
