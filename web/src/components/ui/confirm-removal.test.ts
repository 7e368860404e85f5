import { describe, expect, it } from "vitest";
import { allCounting, confirmRule, describeCounts, type RemovedCount, removalOf } from "./confirm-removal";

const secrets = (count: number): RemovedCount => ({ count, one: "secret", many: "secrets" });
const folders = (count: number): RemovedCount => ({ count, one: "folder", many: "folders" });
const imports = (count: number): RemovedCount => ({ count, one: "import", many: "imports" });

describe("describeCounts", () => {
  it("names each kind with its number, singular or plural, joined as a sentence", () => {
    expect(describeCounts([secrets(42), folders(3), imports(2)])).toBe("42 secrets, 3 folders and 2 imports");
    expect(describeCounts([secrets(1), folders(1)])).toBe("1 secret and 1 folder");
    expect(describeCounts([secrets(2)])).toBe("2 secrets");
  });

  it("leaves out what there is none of, and says nothing when there is nothing", () => {
    expect(describeCounts([secrets(0), folders(3), imports(0)])).toBe("3 folders");
    expect(describeCounts([secrets(0), folders(0)])).toBe("");
    expect(describeCounts([])).toBe("");
  });
});

describe("confirmRule", () => {
  it("asks for the name when anything goes with it", () => {
    expect(confirmRule({ state: "counted", counts: [secrets(0), folders(1)] })).toEqual({
      typeName: true,
      waiting: false,
    });
  });

  it("confirms plainly when nothing goes with it", () => {
    expect(confirmRule({ state: "counted", counts: [secrets(0), folders(0)] })).toEqual({
      typeName: false,
      waiting: false,
    });
    expect(confirmRule(undefined)).toEqual({ typeName: false, waiting: false });
  });

  it("asks for the name when what goes with it could not be counted", () => {
    expect(confirmRule({ state: "uncounted", error: new Error("down") })).toEqual({ typeName: true, waiting: false });
  });

  it("waits while counting", () => {
    expect(confirmRule({ state: "counting" })).toEqual({ typeName: false, waiting: true });
  });

  it("always asks for the name of what always takes others with it, counted or not", () => {
    expect(confirmRule({ state: "counted", counts: [secrets(0)] }, true).typeName).toBe(true);
    expect(confirmRule({ state: "counting" }, true)).toEqual({ typeName: true, waiting: true });
    expect(confirmRule(undefined, true).typeName).toBe(true);
  });
});

describe("removalOf", () => {
  it("reads a query's state", () => {
    expect(removalOf({ status: "pending" })).toEqual({ state: "counting" });
    const error = new Error("403");
    expect(removalOf({ status: "error", error })).toEqual({ state: "uncounted", error });
    expect(removalOf({ status: "success", data: [secrets(2)] })).toEqual({ state: "counted", counts: [secrets(2)] });
  });

  it("counts as counting while the data is read again, so earlier counts are never offered", () => {
    expect(removalOf({ status: "success", data: [secrets(2)], isFetching: true })).toEqual({ state: "counting" });
  });

  it("a failed re-read is a failure even with earlier data", () => {
    const error = new Error("down");
    expect(removalOf({ status: "error", data: [secrets(2)], error })).toEqual({ state: "uncounted", error });
  });
});

describe("allCounting", () => {
  it("joins the counts of several readings", () => {
    expect(
      allCounting([
        { status: "success", data: [secrets(1)] },
        { status: "success", data: [folders(2)] },
      ]),
    ).toEqual({ status: "success", data: [secrets(1), folders(2)] });
  });

  it("is counting while any reading is, and failed when any failed", () => {
    expect(allCounting([{ status: "success", data: [secrets(1)] }, { status: "pending" }]).status).toBe("pending");
    expect(allCounting([{ status: "success", data: [secrets(1)], isFetching: true }]).status).toBe("pending");
    const error = new Error("403");
    expect(allCounting([{ status: "pending" }, { status: "error", error }])).toEqual({ status: "error", error });
  });
});
