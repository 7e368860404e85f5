import { describe, expect, it } from "vitest";
import { namesakeIds, sameName, shortId } from "./identity-names";

describe("identity names", () => {
  it("reads names as the same when only spaces around them or letter case differ", () => {
    expect(sameName("ci-deployer", " CI-Deployer ")).toBe(true);
    expect(sameName("ci-deployer", "ci deployer")).toBe(false);
  });

  it("shortens an id to its first eight characters", () => {
    expect(shortId("3f1c2a9b-0000-4000-8000-000000000001")).toBe("3f1c2a9b");
  });

  it("finds the identities whose name another shares, and no others", () => {
    const identities = [
      { id: "a", name: "ci" },
      { id: "b", name: "web" },
      { id: "c", name: "CI " },
      { id: "d", name: "db" },
      { id: "d", name: "db" },
    ];
    expect([...namesakeIds(identities)]).toEqual(["a", "c"]);
  });
});
