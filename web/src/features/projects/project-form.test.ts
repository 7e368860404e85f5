import { describe, expect, it } from "vitest";
import {
  CreateProjectFormSchema,
  PROJECT_SLUG_MAX,
  projectSlugFrom,
  randomSlugSuffix,
  toCreateBody,
  toCreateFormValues,
} from "./project-form";

describe("projectSlugFrom", () => {
  it("slugifies the name and appends the suffix, as the server does for a default slug", () => {
    expect(projectSlugFrom("Payments API", "x7k2")).toBe("payments-api-x7k2");
    expect(projectSlugFrom("  Billing -- Service!  ", "ab12")).toBe("billing-service-ab12");
  });

  it("transliterates letters outside ASCII instead of dropping them", () => {
    expect(projectSlugFrom("Zürich Café", "0000")).toBe("zuerich-cafe-0000");
  });

  it("keeps within the create slug's maximum length, without a hyphen before the suffix doubling up", () => {
    const slug = projectSlugFrom("a very long project name that keeps going and going", "zz99");
    expect(slug.length).toBeLessThanOrEqual(PROJECT_SLUG_MAX);
    expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(slug.endsWith("-zz99")).toBe(true);
  });

  it("falls back to a readable stem when the name has nothing to slugify", () => {
    expect(projectSlugFrom("", "ab12")).toBe("project-ab12");
    expect(projectSlugFrom("!!!", "ab12")).toBe("project-ab12");
  });

  it("produces a slug the form accepts for any name", () => {
    for (const name of ["x", "Ünïcødé ✨", "a".repeat(64), "--", "Name_with_underscores"]) {
      const slug = projectSlugFrom(name, "q1w2");
      expect(CreateProjectFormSchema.shape.slug.safeParse(slug).success, `${name} → ${slug}`).toBe(true);
    }
  });
});

describe("randomSlugSuffix", () => {
  it("is four lowercase letters or digits drawn from the given random source", () => {
    expect(randomSlugSuffix((size) => new Uint8Array(size).fill(0))).toBe("0000");
    expect(randomSlugSuffix((size) => new Uint8Array(size).fill(35))).toBe("zzzz");
    expect(randomSlugSuffix()).toMatch(/^[a-z0-9]{4}$/);
  });
});

const valid = { ...toCreateFormValues("ab12"), projectName: "Payments", slug: "payments-ab12" };

describe("CreateProjectFormSchema", () => {
  it("starts with default environments on and delete protection off", () => {
    expect(toCreateFormValues("ab12")).toEqual({
      projectName: "",
      projectDescription: "",
      slug: "project-ab12",
      shouldCreateDefaultEnvs: true,
      hasDeleteProtection: false,
    });
  });

  it("refuses a blank name with the contract's message", () => {
    const result = CreateProjectFormSchema.safeParse({ ...valid, projectName: "   " });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["projectName", "Project name is required"],
    ]);
  });

  it.each([
    ["abc", "Slug must be at least 5 characters"],
    ["a".repeat(37), "Slug must be at most 36 characters"],
    ["Has-Capitals", "Slug may contain only lowercase letters, digits and single hyphens"],
    ["double--hyphen", "Slug may contain only lowercase letters, digits and single hyphens"],
    ["under_score", "Slug may contain only lowercase letters, digits and single hyphens"],
    ["-leading", "Slug may contain only lowercase letters, digits and single hyphens"],
  ])("refuses the slug %j: %s", (slug, message) => {
    const result = CreateProjectFormSchema.safeParse({ ...valid, slug });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it("refuses a description over 256 characters", () => {
    const result = CreateProjectFormSchema.safeParse({ ...valid, projectDescription: "d".repeat(257) });
    expect(result.error?.issues[0]?.path).toEqual(["projectDescription"]);
  });
});

describe("toCreateBody", () => {
  it("sends the previewed slug and the toggles, and leaves an empty description out", () => {
    const values = CreateProjectFormSchema.parse({
      projectName: " Payments ",
      projectDescription: "  ",
      slug: "payments-ab12",
      shouldCreateDefaultEnvs: false,
      hasDeleteProtection: true,
    });
    expect(toCreateBody(values)).toEqual({
      projectName: "Payments",
      slug: "payments-ab12",
      shouldCreateDefaultEnvs: false,
      hasDeleteProtection: true,
    });
  });

  it("keeps a description that was given", () => {
    const values = CreateProjectFormSchema.parse({ ...valid, projectDescription: "Card payments" });
    expect(toCreateBody(values).projectDescription).toBe("Card payments");
  });

  it("leaves the description out for a server that does not keep descriptions", () => {
    const values = CreateProjectFormSchema.parse({ ...valid, projectDescription: "Card payments" });
    expect(toCreateBody(values, { descriptions: false })).not.toHaveProperty("projectDescription");
  });
});
