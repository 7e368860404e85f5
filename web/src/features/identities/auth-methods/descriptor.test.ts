import { describe, expect, it } from "vitest";
import { fieldHelp, fieldsOf } from "./descriptor";
import { authMethods, kubernetesAuth } from "./descriptors";

describe("a field's sample value", () => {
  it("ends its help text, so an empty field never shows a value that is not set", () => {
    const withExample = authMethods.flatMap((method) => fieldsOf(method)).filter((field) => field.example);
    expect(withExample.length).toBeGreaterThan(5);
    for (const field of withExample) {
      expect(fieldHelp(field)?.endsWith(`For example: ${field.example}`)).toBe(true);
    }
    const host = fieldsOf(kubernetesAuth).find((field) => field.name === "kubernetesHost");
    expect(host && fieldHelp(host)).toBe(
      "The API server that reviews service account tokens. For example: https://kubernetes.default.svc",
    );
  });
});
