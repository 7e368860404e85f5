import { describe, expect, it } from "vitest";
import { paths } from "./paths";
import { readPlace, withPlace, writePlace } from "./place";

describe("the place (environment and folder) in a URL", () => {
  it("is read from env and path", () => {
    expect(readPlace(new URLSearchParams("env=prod&path=/db&q=x"))).toEqual({ environment: "prod", secretPath: "/db" });
  });

  it("reads the older ?environment= when env is absent, and prefers env", () => {
    expect(readPlace(new URLSearchParams("environment=dev"))).toEqual({ environment: "dev", secretPath: undefined });
    expect(readPlace(new URLSearchParams("environment=dev&env=prod")).environment).toBe("prod");
  });

  it("is written under the one pair of names, leaving out the root folder and dropping the older name", () => {
    const next = writePlace(new URLSearchParams("environment=dev&path=/a&secret=K"), {
      environment: "staging",
      secretPath: "/",
    });
    expect(next.toString()).toBe("secret=K&env=staging");
  });

  it("is added to a page's href when named", () => {
    const imports = paths.project.secretImports.href("p1");
    expect(withPlace(imports, { environment: "prod", secretPath: "/shared" })).toBe(
      "/projects/p1/secret-imports?env=prod&path=%2Fshared",
    );
    expect(withPlace(imports, {})).toBe("/projects/p1/secret-imports");
  });
});
