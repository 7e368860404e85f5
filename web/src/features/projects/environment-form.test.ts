import { describe, expect, it } from "vitest";
import {
  changedEnvironmentFields,
  EnvironmentFormSchema,
  environmentSlugFrom,
  toEnvironmentFormValues,
} from "./environment-form";

const qa = { id: "3192732b-cec0-45f1-92ba-3f72faa495a1", name: "QA", slug: "qa" };

describe("environmentSlugFrom", () => {
  it("derives a valid slug from the name", () => {
    expect(environmentSlugFrom("Pre Production")).toBe("pre-production");
    expect(environmentSlugFrom("QA #2")).toBe("qa-2");
    expect(EnvironmentFormSchema.safeParse({ name: "x", slug: environmentSlugFrom("Ëu West") }).success).toBe(true);
  });
});

describe("EnvironmentFormSchema", () => {
  it("refuses a blank name and a slug that is not a slug", () => {
    const result = EnvironmentFormSchema.safeParse({ name: " ", slug: "Not A Slug" });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["name", "slug"]);
  });

  it("refuses an empty slug", () => {
    expect(EnvironmentFormSchema.safeParse({ name: "QA", slug: "" }).success).toBe(false);
  });
});

describe("changedEnvironmentFields", () => {
  it("sends only what changed on rename", () => {
    expect(changedEnvironmentFields(qa, { name: "Quality", slug: "qa" })).toEqual({ name: "Quality" });
    expect(changedEnvironmentFields(qa, { name: "QA", slug: "quality" })).toEqual({ slug: "quality" });
    expect(changedEnvironmentFields(qa, { name: "QA", slug: "qa" })).toEqual({});
  });

  it("fills the form from the environment, or empty for a new one", () => {
    expect(toEnvironmentFormValues(qa)).toEqual({ name: "QA", slug: "qa" });
    expect(toEnvironmentFormValues()).toEqual({ name: "", slug: "" });
  });
});
