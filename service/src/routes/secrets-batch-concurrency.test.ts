import { expect, it } from "vitest";
import { batchFixture } from "../test/batch-fixtures.ts";
import { describeEachDatabase } from "../test/harness.ts";

/** Concurrent batches over the same keys. */
describeEachDatabase("batch raw secrets: concurrency", (kind) => {
  const f = batchFixture(kind);

  it("50 concurrent batches over overlapping keys lose nothing and keep version numbers unique", async () => {
    const place = { ...f.prod(), secretPath: "/", environment: "dev" };
    const shared = ["RACE_A", "RACE_B", "RACE_C", "RACE_D"];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        f.svc().endpoint("secrets.batchUpdate", {
          body: {
            ...place,
            mode: "upsert",
            // Keys in different orders, so that no two batches lock in the same order by accident.
            secrets: [
              ...(i % 2 === 0 ? shared : [...shared].reverse()).map((secretKey) => ({
                secretKey,
                secretValue: `batch-${i}`,
              })),
              { secretKey: `RACE_OWN_${i}`, secretValue: `own-${i}` },
            ],
          },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const now = await f.state(place);
    for (const key of shared) {
      const [value, version] = now[key] ?? ["", 0];
      expect(version).toBe(50);
      expect(await f.versionsOf(key, place)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      // The value is the one written by the batch that took the last version.
      const last = results.find((r) => f.answers(r.body).some((s) => s.secretKey === key && s.version === 50));
      expect(value).toBe(f.answers(last?.body).find((s) => s.secretKey === key)?.secretValue);
    }
    for (let i = 0; i < 50; i++) expect(now[`RACE_OWN_${i}`]).toEqual([`own-${i}`, 1]);
  });
});
