import { ApiError, describeMissingPermission } from "./api-error";

export interface ErrorDescription {
  title: string;
  message: string;
  missingPermission?: string | undefined;
  reqId?: string | undefined;
  retryable: boolean;
}

/** Turns anything thrown into words for a person: what failed and whether retrying can help. */
export function describeError(error: unknown, fallbackTitle: string): ErrorDescription {
  if (!(error instanceof ApiError)) {
    return {
      title: fallbackTitle,
      message: error instanceof Error ? error.message : "Something unexpected happened.",
      retryable: true,
    };
  }
  const base = { message: error.message, reqId: error.reqId };
  switch (true) {
    case error.status === 0:
      return { ...base, title: "Cannot reach the server", retryable: true };
    case error.status === 401:
      return { ...base, title: "Your session has ended", message: "Sign in again to continue.", retryable: false };
    case error.status === 403:
      return {
        ...base,
        title: "You don't have permission",
        missingPermission: describeMissingPermission(error),
        retryable: false,
      };
    case error.status === 404:
      return { ...base, title: "Not found", retryable: false };
    case error.status === 429:
      return { ...base, title: "Too many requests", message: "Wait a moment, then try again.", retryable: true };
    case error.status >= 500:
      return { ...base, title: fallbackTitle, retryable: true };
    default:
      return { ...base, title: fallbackTitle, retryable: false };
  }
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** One or two sentences for a form-level alert. */
export function errorSummary(error: unknown, fallbackTitle: string): string {
  const info = describeError(error, fallbackTitle);
  const parts = [sentence(info.title)];
  if (info.message && info.message !== info.title) parts.push(sentence(info.message));
  if (info.missingPermission) parts.push(`Missing permission: ${info.missingPermission}.`);
  return parts.join(" ");
}
