import type { FieldErrors, FieldValues } from "react-hook-form";

/** The message at a dotted path of a form's errors ("accessTokenTrustedIps.1.ipAddress"). */
export function errorAt(errors: FieldErrors<FieldValues>, path: string): string | undefined {
  let node: unknown = errors;
  for (const segment of path.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}
