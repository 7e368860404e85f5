import { describe, expect, it } from "vitest";
import { byPosition, dropTarget, moveTo, stepTarget } from "./positions";

const list = (...ids: string[]) => ids.map((id, index) => ({ id, position: index + 1 }));
const order = (items: { id: string; position: number }[]) => items.map((item) => `${item.position}:${item.id}`);

describe("stepTarget", () => {
  const items = [
    { id: "c", position: 3 },
    { id: "a", position: 1 },
    { id: "b", position: 2 },
  ];

  it("asks for the neighbour's position, whatever order the list came in", () => {
    expect(stepTarget(items, "b", -1)).toBe(1);
    expect(stepTarget(items, "b", 1)).toBe(3);
    expect(stepTarget(items, "c", -1)).toBe(2);
  });

  it("asks for nothing past either end, or for an unknown import", () => {
    expect(stepTarget(items, "a", -1)).toBeUndefined();
    expect(stepTarget(items, "c", 1)).toBeUndefined();
    expect(stepTarget(items, "zz", 1)).toBeUndefined();
  });
});

describe("dropTarget", () => {
  const items = list("a", "b", "c", "d");

  it("asks for the position of the import dropped on", () => {
    expect(dropTarget(items, "a", "c")).toBe(3);
    expect(dropTarget(items, "d", "a")).toBe(1);
  });

  it("asks for nothing when dropped on itself, outside the list or on an unknown item", () => {
    expect(dropTarget(items, "b", "b")).toBeUndefined();
    expect(dropTarget(items, "b", undefined)).toBeUndefined();
    expect(dropTarget(items, "b", "zz")).toBeUndefined();
  });
});

describe("moveTo", () => {
  it("moving down shifts those in between up by one, renumbered without gaps", () => {
    expect(order(moveTo(list("a", "b", "c", "d"), "a", 3))).toEqual(["1:b", "2:c", "3:a", "4:d"]);
  });

  it("moving up shifts those in between down by one", () => {
    expect(order(moveTo(list("a", "b", "c", "d"), "d", 2))).toEqual(["1:a", "2:d", "3:b", "4:c"]);
  });

  it("agrees with the server's rule for every move in a list of five", () => {
    const ids = ["a", "b", "c", "d", "e"];
    for (let from = 1; from <= ids.length; from++) {
      for (let to = 1; to <= ids.length; to++) {
        // The server: t > p → p < position ≤ t down by one; t < p → t ≤ position < p up by one; then p := t.
        const expected = list(...ids).map(({ id, position }) => {
          if (position === from) return { id, position: to };
          if (to > from && position > from && position <= to) return { id, position: position - 1 };
          if (to < from && position >= to && position < from) return { id, position: position + 1 };
          return { id, position };
        });
        const moved = moveTo(list(...ids), ids[from - 1] ?? "", to);
        expect(order(moved)).toEqual(order(byPosition(expected)));
      }
    }
  });

  it("keeps a target past the end at the end, and leaves the list alone for an unknown import", () => {
    expect(order(moveTo(list("a", "b", "c"), "a", 9))).toEqual(["1:b", "2:c", "3:a"]);
    expect(order(moveTo(list("a", "b"), "zz", 1))).toEqual(["1:a", "2:b"]);
  });
});
