import { describe, expect, it } from "vitest";
import { pageRange, readIdentitySearch, searchTextProblem, toSearchBody, writeIdentitySearch } from "./identity-search";

describe("the identities list's search, in its URL", () => {
  it("reads text and page, and falls back to the defaults for what the service would refuse", () => {
    expect(readIdentitySearch(new URLSearchParams("q=+ci+&page=3"))).toEqual({ text: "ci", page: 3 });
    expect(readIdentitySearch(new URLSearchParams("page=0"))).toEqual({ text: "", page: 1 });
    expect(readIdentitySearch(new URLSearchParams("page=1.5&q=a%3Bb"))).toEqual({ text: "", page: 1 });
  });

  it("writes only what differs from the defaults, keeping other params", () => {
    const params = new URLSearchParams("tab=x&page=4");
    expect(writeIdentitySearch(params, { text: "ci", page: 1 }).toString()).toBe("tab=x&q=ci");
    expect(writeIdentitySearch(params, { text: "", page: 2 }).toString()).toBe("tab=x&page=2");
  });

  it("asks the service for the page by offset, searching names when there is text", () => {
    expect(toSearchBody({ text: "", page: 3 })).toEqual({
      limit: 20,
      offset: 40,
      orderBy: "name",
      orderDirection: "asc",
    });
    expect(toSearchBody({ text: "ci", page: 1 }).search).toEqual({ name: { $contains: "ci" } });
  });

  it("names the range shown", () => {
    expect(pageRange({ text: "", page: 2 }, 20, 57)).toBe("21–40 of 57");
    expect(pageRange({ text: "", page: 3 }, 17, 57)).toBe("41–57 of 57");
  });

  it("says why text the service refuses cannot be searched", () => {
    expect(searchTextProblem("ci-deploy/prod_1")).toBeUndefined();
    expect(searchTextProblem("ci.deploy")).toMatch(/letters, digits/);
    expect(searchTextProblem("x".repeat(256))).toMatch(/255/);
  });
});
