import { z } from "zod";
import { describe, expect, it } from "vitest";
import { endpointList } from "./index.ts";
import { contractRevision, revisionOf } from "./revision.ts";

describe("the contract revision", () => {
  it("is one short digest per build, the same on every call", () => {
    expect(contractRevision()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(contractRevision()).toBe(revisionOf(endpointList));
  });

  it("changes when any answer's shape changes, and only then", () => {
    const [first, ...rest] = endpointList;
    if (!first) throw new Error("the contract has no endpoints");
    const reshaped = { ...first, response: z.object({ other: z.string() }) };
    const documented = { ...first, summary: `${first.summary} (reworded)` };
    expect(revisionOf([reshaped, ...rest])).not.toBe(contractRevision());
    expect(revisionOf([documented, ...rest])).toBe(contractRevision());
  });
});
