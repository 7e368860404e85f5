import type { ValidationIssue } from "@keyhold/contract";
import type { FieldPath, FieldValues, UseFormReturn, UseFormSetError } from "react-hook-form";
import { ApiError, isApiError } from "./api-error";
import { errorSummary } from "./describe-error";

/** Request-envelope prefixes a server may put in front of a body field's path. */
const ENVELOPE_SEGMENTS = new Set(["body"]);

/** "metadata.0.key" for ["body", "metadata", 0, "key"]. */
export function issuePath(issue: ValidationIssue): string {
  const segments = [...issue.path];
  if (typeof segments[0] === "string" && ENVELOPE_SEGMENTS.has(segments[0])) segments.shift();
  return segments.map(String).join(".");
}

/**
 * Puts each 422 issue on the form field it names. A path is accepted when it is one of
 * `fields` or lies inside one (so "metadata.0.key" lands under "metadata"). Returns the
 * messages no field could take, for a form-level alert.
 */
export function applyServerIssues<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): string[] {
  if (!(error instanceof ApiError) || !error.isValidation) return [];
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const path = issuePath(issue);
    const known = fields.some((field) => path === field || path.startsWith(`${field}.`));
    if (known && path) {
      setError(path as FieldPath<T>, { type: "server", message: issue.message });
    } else {
      unplaced.push(path ? `${path}: ${issue.message}` : issue.message);
    }
  }
  if (error.issues.length === 0) unplaced.push(error.message);
  return unplaced;
}

/**
 * Puts a failed submit on the form: 422 issues on their fields, anything else (or issues
 * no field can take) as the form's root error. A 401 is left to the session handler.
 */
export function showSubmitError<TInput extends FieldValues, TOutput>(
  form: UseFormReturn<TInput, unknown, TOutput>,
  error: unknown,
  fields: readonly FieldPath<TInput>[],
  fallbackTitle: string,
): void {
  if (isApiError(error, 401)) return;
  const unplaced = applyServerIssues(error, form.setError, fields);
  const validation = isApiError(error) && error.isValidation;
  if (validation && unplaced.length === 0) return;
  form.setError("root.server", {
    type: "server",
    message: validation ? `Some values were not accepted: ${unplaced.join("; ")}` : errorSummary(error, fallbackTitle),
  });
}
