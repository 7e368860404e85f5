import { describe, expect, it } from "vitest";
import {
  type EnvironmentListing,
  filterOverview,
  type OverviewSecret,
  overviewCounts,
  overviewFolders,
  overviewRows,
} from "./overview-rows";

const envs = ["dev", "staging", "prod"];
const secret = (secretKey: string, digest?: string): OverviewSecret => ({
  secretKey,
  version: 1,
  secretComment: "",
  digest,
});
const loaded = (...secrets: OverviewSecret[]): EnvironmentListing => ({ state: "loaded", secrets });

describe("overviewRows", () => {
  it("lists every key of any environment once, in key order, marking where it is missing", () => {
    const rows = overviewRows(envs, [
      loaded(secret("B_KEY", "x"), secret("A_KEY", "a")),
      loaded(secret("A_KEY", "a")),
      loaded(secret("C_KEY", "c"), secret("A_KEY", "a")),
    ]);
    expect(rows.map((row) => row.secretKey)).toEqual(["A_KEY", "B_KEY", "C_KEY"]);
    expect(rows.map((row) => row.missingIn)).toEqual([[], ["staging", "prod"], ["dev", "staging"]]);
    expect(rows[1]?.cells.map((cell) => cell.kind)).toEqual(["present", "missing", "missing"]);
  });

  it("says equal when every digest is the same, and differ with value groups otherwise", () => {
    const rows = overviewRows(envs, [
      loaded(secret("SAME", "d1"), secret("DIFF", "d1")),
      loaded(secret("SAME", "d1"), secret("DIFF", "d2")),
      loaded(secret("SAME", "d1"), secret("DIFF", "d1")),
    ]);
    const [diff, same] = rows;
    expect(same?.comparison).toBe("equal");
    expect(same?.cells.map((cell) => (cell.kind === "present" ? cell.group : "-"))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(diff?.comparison).toBe("differ");
    expect(diff?.cells.map((cell) => (cell.kind === "present" ? cell.group : "-"))).toEqual([0, 1, 0]);
  });

  it("compares only the environments holding the key, and calls one holder single", () => {
    const rows = overviewRows(envs, [
      loaded(secret("K", "d1"), secret("ONE", "z")),
      loaded(),
      loaded(secret("K", "d1")),
    ]);
    expect(rows.find((row) => row.secretKey === "K")?.comparison).toBe("equal");
    expect(rows.find((row) => row.secretKey === "ONE")?.comparison).toBe("single");
  });

  it("does not compare when any present value has no digest", () => {
    const rows = overviewRows(envs, [loaded(secret("K", "d1")), loaded(secret("K")), loaded(secret("K", "d2"))]);
    expect(rows[0]?.comparison).toBe("not-compared");
    expect(rows[0]?.cells.every((cell) => cell.kind !== "present" || cell.group === undefined)).toBe(true);
  });

  it("counts a missing folder as missing keys, and an unread environment as unknown", () => {
    const rows = overviewRows(envs, [loaded(secret("K", "d")), { state: "no-folder" }, { state: "pending" }]);
    expect(rows[0]?.cells.map((cell) => cell.kind)).toEqual(["present", "missing", "unknown"]);
    expect(rows[0]?.missingIn).toEqual(["staging"]);
    const failed = overviewRows(envs, [loaded(secret("K", "d")), { state: "error" }, loaded(secret("K", "d"))]);
    expect(failed[0]?.cells[1]?.kind).toBe("unknown");
    expect(failed[0]?.missingIn).toEqual([]);
  });

  it("handles 1,000 keys × 3 environments", () => {
    const many = (digest: string) =>
      loaded(
        ...Array.from({ length: 1000 }, (_, n) => secret(`KEY_${String(n).padStart(4, "0")}`, `${digest}${n % 7}`)),
      );
    const rows = overviewRows(envs, [many("a"), many("a"), many("b")]);
    expect(rows).toHaveLength(1000);
    expect(overviewCounts(rows)).toEqual({ missing: 0, differ: 1000 });
  });
});

describe("filterOverview and overviewCounts", () => {
  const rows = overviewRows(envs, [
    loaded(secret("DB_URL", "1"), secret("API_KEY", "k"), secret("ONLY_DEV", "o")),
    loaded(secret("DB_URL", "2"), secret("API_KEY", "k"), secret("ONLY_DEV", "o")),
    loaded(secret("DB_URL", "1"), secret("API_KEY", "k")),
  ]);

  it("narrows by key without regard to case, and by what is wrong", () => {
    expect(filterOverview(rows, "db", "all").map((row) => row.secretKey)).toEqual(["DB_URL"]);
    expect(filterOverview(rows, "", "missing").map((row) => row.secretKey)).toEqual(["ONLY_DEV"]);
    expect(filterOverview(rows, "", "differ").map((row) => row.secretKey)).toEqual(["DB_URL"]);
    expect(filterOverview(rows, "api", "differ")).toEqual([]);
  });

  it("counts rows missing somewhere and rows whose values differ", () => {
    expect(overviewCounts(rows)).toEqual({ missing: 1, differ: 1 });
  });
});

describe("overviewFolders", () => {
  it("lists each sub-folder once, with where it exists", () => {
    const folders = overviewFolders([
      { state: "loaded", names: ["api", "jobs"] },
      { state: "loaded", names: ["api"] },
      { state: "no-folder" },
    ]);
    expect(folders).toEqual([
      { name: "api", presentIn: [true, true, false] },
      { name: "jobs", presentIn: [true, false, false] },
    ]);
    expect(overviewFolders([{ state: "loaded", names: ["a"] }, { state: "pending" }])[0]?.presentIn).toEqual([
      true,
      undefined,
    ]);
  });
});
