import { describe, expect, it } from "vitest";
import { findImportCycle, type ImportEdge, positionShift } from "./secret-import-graph.ts";

const at = (envId: string, path = "/") => ({ envId, path });
const edge = (from: ReturnType<typeof at>, to: ReturnType<typeof at>): ImportEdge => ({ from, to });

describe("import cycles", () => {
  it("finds none where the source never leads back", () => {
    const edges = [edge(at("staging"), at("prod")), edge(at("dev", "/a"), at("prod"))];
    expect(findImportCycle(edges, at("dev"), at("staging"))).toBeUndefined();
  });

  it("finds a folder importing itself", () => {
    expect(findImportCycle([], at("dev", "/a"), at("dev", "/a"))).toEqual([at("dev", "/a"), at("dev", "/a")]);
  });

  it("finds a direct cycle (the source already imports the destination)", () => {
    expect(findImportCycle([edge(at("staging"), at("dev"))], at("dev"), at("staging"))).toEqual([
      at("dev"),
      at("staging"),
      at("dev"),
    ]);
  });

  it("finds an indirect cycle, as a shortest chain", () => {
    const edges = [
      edge(at("staging"), at("prod", "/x")),
      edge(at("prod", "/x"), at("qa")),
      edge(at("qa"), at("dev")),
      edge(at("staging"), at("dev")),
      edge(at("prod", "/x"), at("other")),
    ];
    expect(findImportCycle(edges, at("dev"), at("staging"))).toEqual([at("dev"), at("staging"), at("dev")]);
    expect(findImportCycle(edges, at("dev"), at("prod", "/x"))).toEqual([
      at("dev"),
      at("prod", "/x"),
      at("qa"),
      at("dev"),
    ]);
  });

  it("tells folders apart by environment and by path", () => {
    const edges = [edge(at("staging"), at("dev", "/a"))];
    expect(findImportCycle(edges, at("dev"), at("staging"))).toBeUndefined();
    expect(findImportCycle(edges, at("dev", "/a"), at("staging"))).toBeDefined();
  });
});

describe("position shifts", () => {
  it("moves those in between towards the gap, and nothing when the place is the same", () => {
    expect(positionShift(2, 5)).toEqual({ lower: 3, upper: 5, by: -1 });
    expect(positionShift(5, 2)).toEqual({ lower: 2, upper: 4, by: 1 });
    expect(positionShift(3, 3)).toBeUndefined();
  });
});
