import { describe, expect, it } from "vitest";
import { filterSecrets, indexSecrets, tagOptions } from "./secret-filter";

const tag = (slug: string, color: string | null = null) => ({ slug, color });
const secrets = [
  { secretKey: "DATABASE_URL", tags: [tag("backend", "#f00")] },
  { secretKey: "REDIS_URL", tags: [tag("backend"), tag("cache")] },
  { secretKey: "stripe_key", tags: [] },
  { secretKey: "Database_Replica" },
];

describe("secret filter", () => {
  const index = indexSecrets(secrets);

  it("matches part of a key whatever its case, in list order", () => {
    expect(filterSecrets(index, "database", undefined).map((s) => s.secretKey)).toEqual([
      "DATABASE_URL",
      "Database_Replica",
    ]);
    expect(filterSecrets(index, "  URL ", undefined).map((s) => s.secretKey)).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(filterSecrets(index, "nothing", undefined)).toEqual([]);
  });

  it("keeps only the secrets with the tag, and combines tag and text", () => {
    expect(filterSecrets(index, "", "cache").map((s) => s.secretKey)).toEqual(["REDIS_URL"]);
    expect(filterSecrets(index, "data", "backend").map((s) => s.secretKey)).toEqual(["DATABASE_URL"]);
    expect(filterSecrets(index, "stripe", "backend")).toEqual([]);
  });

  it("returns the list itself when nothing filters it", () => {
    expect(filterSecrets(index, " ", undefined)).toBe(secrets);
  });

  it("narrows the last result as a search grows, and starts again when it changes otherwise", () => {
    const own = indexSecrets(secrets);
    const keysOf = (search: string, tagged?: string) => filterSecrets(own, search, tagged).map((s) => s.secretKey);
    expect(keysOf("d")).toEqual(["DATABASE_URL", "REDIS_URL", "Database_Replica"]);
    expect(keysOf("da")).toEqual(["DATABASE_URL", "Database_Replica"]);
    expect(keysOf("data")).toEqual(["DATABASE_URL", "Database_Replica"]);
    // Not a longer form of "data": every key again.
    expect(keysOf("_")).toEqual(["DATABASE_URL", "REDIS_URL", "stripe_key", "Database_Replica"]);
    expect(keysOf("_url")).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(keysOf("url")).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(keysOf("ur")).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(keysOf("url", "cache")).toEqual(["REDIS_URL"]);
    expect(keysOf("url", "backend")).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(keysOf("r")).toEqual(["DATABASE_URL", "REDIS_URL", "stripe_key", "Database_Replica"]);
    expect(keysOf("re")).toEqual(["REDIS_URL", "Database_Replica"]);
    expect(keysOf("", "backend")).toEqual(["DATABASE_URL", "REDIS_URL"]);
    expect(keysOf("rep", "backend")).toEqual([]);
    expect(keysOf("rep")).toEqual(["Database_Replica"]);
  });

  it("gives back the same list when a search keeps every secret it had", () => {
    const own = indexSecrets(secrets);
    expect(filterSecrets(own, "_", undefined)).toBe(secrets);
    const data = filterSecrets(own, "da", undefined);
    expect(filterSecrets(own, "dat", undefined)).toBe(data);
    expect(filterSecrets(own, "datab", undefined)).toBe(data);
    expect(filterSecrets(own, "database_", undefined)).toBe(data);
    expect(filterSecrets(own, "database_u", undefined).map((s) => s.secretKey)).toEqual(["DATABASE_URL"]);
  });

  it("offers each tag the secrets carry once, by slug, with how many carry it", () => {
    expect(tagOptions(secrets)).toEqual([
      { slug: "backend", color: "#f00", count: 2 },
      { slug: "cache", color: null, count: 1 },
    ]);
  });

  it("filters 10,000 keys from one precomputed index", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ secretKey: `SERVICE_${i}_TOKEN` }));
    const big = indexSecrets(many);
    expect(big.keys[42]).toBe("service_42_token");
    expect(filterSecrets(big, "_999", undefined).map((s) => s.secretKey)).toEqual([
      "SERVICE_999_TOKEN",
      "SERVICE_9990_TOKEN",
      "SERVICE_9991_TOKEN",
      "SERVICE_9992_TOKEN",
      "SERVICE_9993_TOKEN",
      "SERVICE_9994_TOKEN",
      "SERVICE_9995_TOKEN",
      "SERVICE_9996_TOKEN",
      "SERVICE_9997_TOKEN",
      "SERVICE_9998_TOKEN",
      "SERVICE_9999_TOKEN",
    ]);
  });
});
