import {
  type ErrorBody,
  type PermissionNote,
  type ValidationIssue,
  ValidationIssueSchema,
  errorNames,
} from "@keyhold/contract";
import { z } from "zod";

const IssueListSchema = z.array(ValidationIssueSchema);

/**
 * The one error the app throws for a failed request. It carries the server's error
 * envelope as received, plus the permission the endpoint needs (from the contract),
 * so a 403 can say what is missing.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reqId: string | undefined;
  readonly issues: ValidationIssue[];
  readonly details: unknown;
  readonly permission: PermissionNote | undefined;

  constructor(body: ErrorBody, permission?: PermissionNote) {
    const issues = Array.isArray(body.message) ? IssueListSchema.safeParse(body.message) : undefined;
    super(typeof body.message === "string" ? body.message : "The request was not valid");
    this.name = "ApiError";
    this.status = body.statusCode;
    this.code = body.error;
    this.reqId = body.reqId || undefined;
    this.issues = issues?.success ? issues.data : [];
    this.details = body.details;
    this.permission = permission;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }

  get isValidation(): boolean {
    return this.status === 422 || this.code === errorNames.validation;
  }
}

/** A short, human description of the permission a 403 says is missing. */
export function describeMissingPermission(error: ApiError): string | undefined {
  if (!error.isForbidden || !error.permission) return undefined;
  const { scope, subject, action } = error.permission;
  return `${action} on ${subject} (${scope === "org" ? "organization" : "project"} permission)`;
}

/** Narrows any thrown value to an ApiError with the given status. */
export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/**
 * Whether the server has no such route, rather than no such record: the BFF passes on the
 * server's "Route METHOD:path not found" (its error name is NotFound either way).
 */
export function isMissingRoute(error: unknown): error is ApiError {
  return isApiError(error, 404) && /^Route \w+:\S* not found$/.test(error.message);
}

/** Whether the server answers this only to a user's session, not to a machine identity (named so by the BFF). */
export function isUserSessionOnly(error: unknown): error is ApiError {
  return isApiError(error, 403) && error.code === errorNames.userSessionOnly;
}
