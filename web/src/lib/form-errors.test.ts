import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { applyServerIssues, issuePath, showSubmitError } from "./form-errors";

const fields = ["name", "role", "metadata"] as const;
type Values = { name: string; role: string; metadata: { key: string; value: string }[] };

function validationError(issues: { path: (string | number)[]; message: string }[]) {
  return new ApiError({
    reqId: "r1",
    statusCode: 422,
    error: "ValidationFailure",
    message: issues.map((issue) => ({ code: "custom", ...issue })),
  });
}

describe("issuePath", () => {
  it("joins segments with dots and drops a leading body segment", () => {
    expect(issuePath({ code: "x", path: ["body", "metadata", 0, "key"], message: "m" })).toBe("metadata.0.key");
    expect(issuePath({ code: "x", path: ["name"], message: "m" })).toBe("name");
  });
});

describe("applyServerIssues", () => {
  it("puts each issue on the field its path names, nested rows included", () => {
    const setError = vi.fn();
    const unplaced = applyServerIssues<Values>(
      validationError([
        { path: ["name"], message: "Name may contain letters, digits, spaces, hyphens and underscores" },
        { path: ["metadata", 1, "value"], message: "Value is required" },
      ]),
      setError,
      fields,
    );
    expect(setError).toHaveBeenCalledTimes(2);
    expect(setError).toHaveBeenCalledWith("name", {
      type: "server",
      message: "Name may contain letters, digits, spaces, hyphens and underscores",
    });
    expect(setError).toHaveBeenCalledWith("metadata.1.value", { type: "server", message: "Value is required" });
    expect(unplaced).toEqual([]);
  });

  it("returns issues that no field can take, with their path", () => {
    const setError = vi.fn();
    const unplaced = applyServerIssues<Values>(
      validationError([
        { path: ["organizationId"], message: "Required" },
        { path: [], message: "Body is invalid" },
      ]),
      setError,
      fields,
    );
    expect(setError).not.toHaveBeenCalled();
    expect(unplaced).toEqual(["organizationId: Required", "Body is invalid"]);
  });

  it("does not mistake a field whose name merely starts like another for a nested path", () => {
    const setError = vi.fn();
    const unplaced = applyServerIssues<Values>(
      validationError([{ path: ["roleId"], message: "Bad" }]),
      setError,
      fields,
    );
    expect(setError).not.toHaveBeenCalled();
    expect(unplaced).toEqual(["roleId: Bad"]);
  });

  it("ignores errors that are not validation failures", () => {
    const setError = vi.fn();
    const forbidden = new ApiError({ reqId: "r", statusCode: 403, error: "PermissionDenied", message: "No" });
    expect(applyServerIssues<Values>(forbidden, setError, fields)).toEqual([]);
    expect(applyServerIssues<Values>(new Error("boom"), setError, fields)).toEqual([]);
    expect(setError).not.toHaveBeenCalled();
  });
});

describe("showSubmitError", () => {
  function formOver(html: string, values: Record<string, unknown>) {
    document.body.innerHTML = html;
    const scrolled: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("[name]")) {
      element.scrollIntoView = () => scrolled.push(element.getAttribute("name") ?? "");
    }
    const form = {
      setError: vi.fn(),
      getValues: (path: string) => values[path.split(".")[0] ?? ""],
      setFocus: (path: string) => document.querySelector<HTMLElement>(`[name="${path}"]`)?.focus(),
    };
    return { form, scrolled };
  }

  it("focuses the first refused field in the form's order, inside a list, and scrolls it into view", () => {
    const { form, scrolled } = formOver('<input name="name"><input name="role"><input name="metadata.0.key">', {
      metadata: [{ key: "", value: "" }],
    });
    showSubmitError(
      form as never,
      validationError([
        { path: ["body", "metadata", 0, "key"], message: "Key is required" },
        { path: ["role"], message: "Unknown role" },
      ]),
      fields,
      "Could not save",
    );
    expect(document.activeElement?.getAttribute("name")).toBe("role");
    expect(scrolled).toEqual(["role"]);
    expect(form.setError).not.toHaveBeenCalledWith("root.server", expect.anything());
  });

  it("enters a refused list at its first control", () => {
    const { form, scrolled } = formOver('<input name="name"><input name="metadata.0.key">', {
      metadata: [{ key: "", value: "" }],
    });
    showSubmitError(form as never, validationError([{ path: ["metadata"], message: "Too many" }]), fields, "x");
    expect(scrolled).toEqual(["metadata.0.key"]);
  });

  it("puts a refusal that names no field on the form itself, moving no focus", () => {
    const { form, scrolled } = formOver('<input name="name">', {});
    const refusal = new ApiError({ reqId: "r", statusCode: 400, error: "BadRequest", message: "Already attached" });
    showSubmitError(form as never, refusal, fields, "Could not save");
    expect(form.setError).toHaveBeenCalledWith("root.server", {
      type: "server",
      message: "Could not save. Already attached.",
    });
    expect(scrolled).toEqual([]);
  });
});
