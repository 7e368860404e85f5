import { describe, expect, it } from "vitest";
import { membership, ORG_ID } from "@/testing/fixtures";
import { IdentityFormSchema, toCreateBody, toFormValues, toUpdateBody } from "./identity-form";

describe("toFormValues", () => {
  it("gives empty, least-privilege values for a new identity", () => {
    expect(toFormValues()).toEqual({ name: "", role: "no-access", hasDeleteProtection: false, metadata: [] });
  });

  it("reads an existing membership, preferring a custom role's slug", () => {
    const values = toFormValues(
      membership({
        role: "custom",
        customRole: { id: "c0ffee00-0000-4000-8000-000000000000", name: "Auditor", slug: "auditor", permissions: [] },
      }),
    );
    expect(values).toEqual({
      name: "ci-deployer",
      role: "auditor",
      hasDeleteProtection: false,
      metadata: [{ key: "team", value: "platform" }],
    });
  });
});

describe("IdentityFormSchema", () => {
  it("uses the contract's messages for a missing name and empty metadata cells", () => {
    const result = IdentityFormSchema.safeParse({
      name: "  ",
      role: "member",
      hasDeleteProtection: false,
      metadata: [{ key: "", value: "" }],
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(messages).toEqual(
      expect.arrayContaining([
        ["name", "Name is required"],
        ["metadata.0.key", "Key is required"],
        ["metadata.0.value", "Value is required"],
      ]),
    );
  });

  it("rejects a metadata key used twice, on the second row", () => {
    const result = IdentityFormSchema.safeParse({
      name: "ci",
      role: "member",
      hasDeleteProtection: false,
      metadata: [
        { key: "team", value: "a" },
        { key: "team", value: "b" },
      ],
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["metadata", 1, "key"], message: "Each key can be used once" }),
    ]);
  });
});

describe("request bodies", () => {
  const values = IdentityFormSchema.parse({
    name: " ci ",
    role: "admin",
    hasDeleteProtection: true,
    metadata: [{ key: "env", value: "prod" }],
  });

  it("adds the organisation to the create body", () => {
    expect(toCreateBody(values, ORG_ID)).toEqual({
      name: "ci",
      role: "admin",
      hasDeleteProtection: true,
      metadata: [{ key: "env", value: "prod" }],
      organizationId: ORG_ID,
    });
  });

  it("sends all metadata on update, since the server replaces it", () => {
    expect(toUpdateBody({ ...values, metadata: [] })).toEqual({
      name: "ci",
      role: "admin",
      hasDeleteProtection: true,
      metadata: [],
    });
  });
});
