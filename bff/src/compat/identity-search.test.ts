import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { membership } from "../test/samples.ts";
import { searchIdentityList } from "./identity-search.ts";

const member = (name: string, role: string) => ({ ...membership(randomUUID(), name), role });
const list = {
  identities: [
    member("ci-deploy", "member"),
    member("billing", "admin"),
    member("CI-nightly", "no-access"),
    member("ci-build", "member"),
    member("api", "member"),
  ],
  totalCount: 5,
};
const names = (answer: ReturnType<typeof searchIdentityList>) => answer.identities.map((m) => m.identity.name);

describe("an identity search answered from the whole list (servers without the search route)", () => {
  it("orders by name and cuts the page asked for, counting every match", () => {
    const first = searchIdentityList({ limit: 2, offset: 0 }, list);
    expect(names(first)).toEqual(["api", "billing"]);
    expect(first.totalCount).toBe(5);
    expect(names(searchIdentityList({ limit: 2, offset: 4 }, list))).toEqual(["CI-nightly"]);
  });

  it("finds names containing the text, ignoring case, as the service does", () => {
    const answer = searchIdentityList({ search: { name: "ci" }, limit: 10 }, list);
    expect(names(answer)).toEqual(["ci-build", "ci-deploy", "CI-nightly"]);
    expect(answer.totalCount).toBe(3);
  });

  it("filters by role and orders descending when asked", () => {
    const answer = searchIdentityList({ search: { role: { $in: ["member"] } }, orderDirection: "desc" }, list);
    expect(names(answer)).toEqual(["ci-deploy", "ci-build", "api"]);
  });

  it("refuses a list that is not an identity list rather than inventing one", () => {
    expect(() => searchIdentityList({}, { identities: "nope" })).toThrow();
  });
});
