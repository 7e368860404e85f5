import { type ErrorBody, errorNames } from "@keyhold/contract";

/** The error name for a status when the server gave none we can use. */
const nameByStatus: Record<number, string> = {
  400: errorNames.badRequest,
  401: errorNames.unauthorized,
  403: errorNames.forbidden,
  404: errorNames.notFound,
  422: errorNames.validation,
  429: errorNames.rateLimit,
  500: errorNames.internal,
};

/** Messages that say nothing the `error` field does not say better. */
const GENERIC_MESSAGES = new Set(["Something went wrong", "You are not allowed to access this resource"]);

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*$/;

/** What a field the server refuses to clear says, in place of its validator's "Expected string, received null". */
export const CANNOT_CLEAR = "This server requires a value here: it cannot be cleared.";

function sayCannotClear(issue: unknown): unknown {
  if (typeof issue !== "object" || issue === null) return issue;
  const { code, received } = issue as { code?: unknown; received?: unknown };
  return code === "invalid_type" && received === "null" ? { ...issue, message: CANNOT_CLEAR } : issue;
}

/**
 * Infisical's refusal of the kind of session, not of its permissions: routes that take only a
 * user's session answer a machine identity 403 "Forbidden access to <path>" (recorded: secret
 * versions on both lines, 103 and 120; 2024's project list, 049), however much it may do.
 */
const USER_SESSION_ONLY = /^Forbidden access to \//;

/**
 * Causes older servers answer with 500 though they mean "no such record": October 2024 servers
 * read an unknown project id that way (recorded: 119), where current servers answer 404.
 */
export const NOT_FOUND_CAUSES: ReadonlySet<string> = new Set(["Failed to find project by id"]);

/**
 * One error body from any server version, in the shape the console reads:
 * - a missing `reqId` becomes the BFF's own request id;
 * - validation failures are 422 (older servers answer 401 `ValidationFailure`);
 * - an issue saying a field may not be null (older servers require what current ones let the
 *   console clear, such as a Kubernetes reviewer JWT) says so in words (`CANNOT_CLEAR`);
 * - a 500 whose cause says the record does not exist is 404 (`NOT_FOUND_CAUSES`);
 * - a 403 that refuses the kind of session (`USER_SESSION_ONLY`) is `UserSessionOnly`, and says so;
 * - an `error` that is a sentence rather than a name (older servers put the cause there, with a
 *   generic message) becomes the message, and the name follows from the status;
 * - a body that is not an error envelope at all is described by its status.
 */
export function normaliseError(status: number, body: unknown, reqId: string): { status: number; body: ErrorBody } {
  const raw =
    typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  let error = typeof raw.error === "string" ? raw.error : "";
  let message: ErrorBody["message"] =
    typeof raw.message === "string" || Array.isArray(raw.message) ? (raw.message as ErrorBody["message"]) : "";
  let statusCode = status;

  if (error === errorNames.validation && status === 401) statusCode = 422;
  if (statusCode === 422 && Array.isArray(message)) message = message.map(sayCannotClear);
  if (status === 500 && NOT_FOUND_CAUSES.has(error)) statusCode = 404;
  if (error === "Not Found" && status === 404) error = errorNames.notFound;
  if (statusCode === 403 && USER_SESSION_ONLY.test(error)) {
    message = `This server answers this only to a user's session, not to a machine identity (${error}).`;
    error = errorNames.userSessionOnly;
  }
  if (error !== "" && !IDENTIFIER.test(error)) {
    const reason = error;
    error = nameByStatus[statusCode] ?? "HttpError";
    message =
      typeof message !== "string" || message === "" || GENERIC_MESSAGES.has(message)
        ? reason
        : `${message} (${reason})`;
  }
  if (error === "") error = nameByStatus[statusCode] ?? "HttpError";
  if (message === "") message = `The secrets service answered HTTP ${status} without an explanation.`;

  return {
    status: statusCode,
    body: {
      reqId: typeof raw.reqId === "string" && raw.reqId !== "" ? raw.reqId : reqId,
      statusCode,
      message,
      error,
      ...("details" in raw && { details: raw.details }),
    },
  };
}

/** Whether the server said it has no such route (not: no such resource). */
export function isRouteNotFound(status: number, body: unknown): boolean {
  if (status !== 404 || typeof body !== "object" || body === null) return false;
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" && /^Route \w+:\S* not found$/.test(message);
}

/** Whether the server refused the kind of session (a machine identity), not its permissions. */
export function isUserSessionOnly(status: number, body: unknown): boolean {
  if (status !== 403 || typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === "string" && USER_SESSION_ONLY.test(error);
}
