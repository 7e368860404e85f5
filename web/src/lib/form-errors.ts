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
  return placeServerIssues(error, setError, fields).unplaced;
}

function placeServerIssues<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): { placed: string[]; unplaced: string[] } {
  if (!(error instanceof ApiError) || !error.isValidation) return { placed: [], unplaced: [] };
  const placed: string[] = [];
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const path = issuePath(issue);
    const known = fields.some((field) => path === field || path.startsWith(`${field}.`));
    if (known && path) {
      setError(path as FieldPath<T>, { type: "server", message: issue.message });
      placed.push(path);
    } else {
      unplaced.push(path ? `${path}: ${issue.message}` : issue.message);
    }
  }
  if (error.issues.length === 0) unplaced.push(error.message);
  return { placed, unplaced };
}

/** A path and the paths of every value inside it ("ips", "ips.0", "ips.0.address"), in order. */
function pathsWithin(value: unknown, path: string): string[] {
  if (value === null || typeof value !== "object") return [path];
  return [path, ...Object.entries(value).flatMap(([key, inner]) => pathsWithin(inner, `${path}.${key}`))];
}

/**
 * Focuses the first control of a field a refusal named (for a list, its first row) and brings it
 * into view with room for its message; a field with no control of its own is left as it is.
 */
export function revealField<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, "getValues" | "setFocus">,
  path: string,
) {
  for (const candidate of pathsWithin(form.getValues(path as FieldPath<T>), path)) {
    const before = document.activeElement;
    form.setFocus(candidate as FieldPath<T>);
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && focused !== before) {
      focused.scrollIntoView?.({ block: "center" });
      return;
    }
  }
}

/**
 * Puts a failed submit on the form: 422 issues on their fields, the first of them focused and
 * scrolled into view, anything else (or issues no field can take) as the form's root error,
 * which the form shows at its top (FormAlert). A 401 is left to the session handler.
 */
export function showSubmitError<TInput extends FieldValues, TOutput>(
  form: UseFormReturn<TInput, unknown, TOutput>,
  error: unknown,
  fields: readonly FieldPath<TInput>[],
  fallbackTitle: string,
): void {
  if (isApiError(error, 401)) return;
  const { placed, unplaced } = placeServerIssues(error, form.setError, fields);
  // The form's order, not the server's, decides which refused field is shown first.
  const first = fields.find((field) => placed.some((path) => path === field || path.startsWith(`${field}.`)));
  if (first) revealField(form, placed.find((path) => path === first || path.startsWith(`${first}.`)) ?? first);
  const validation = isApiError(error) && error.isValidation;
  if (validation && unplaced.length === 0) return;
  form.setError("root.server", {
    type: "server",
    message: validation ? `Some values were not accepted: ${unplaced.join("; ")}` : errorSummary(error, fallbackTitle),
  });
}
