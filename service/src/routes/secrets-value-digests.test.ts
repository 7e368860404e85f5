import { endpoints } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { batchFixture } from "../test/batch-fixtures.ts";
import { describeEachDatabase } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import type { Place } from "../test/secret-fixtures.ts";

/** Value digests in lists: comparing values across environments without revealing them. */
describeEachDatabase("secret value digests", (kind) => {
  const f = batchFixture(kind);

  describe("value digests", () => {
    const dev = () => ({ ...f.prod(), environment: "dev", secretPath: "/" });
    const digests = async (place: Place, extra: Record<string, string>, token?: string) => {
      const res = await f
        .svc()
        .endpoint(
          "secrets.list",
          { query: { ...place, viewSecretValue: "false", ...extra } },
          token === undefined ? {} : { token },
        );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { secrets } = endpoints["secrets.list"].response.parse(res.body);
      return Object.fromEntries(secrets.map((s) => [s.secretKey, s]));
    };

    it("equal values have equal digests across a project's environments; values stay withheld", async () => {
      await f.batch("secrets.batchCreate", {
        ...dev(),
        secrets: [
          { secretKey: "DIGEST_SAME", secretValue: "same-value" },
          { secretKey: "DIGEST_DIFF", secretValue: "dev-value" },
        ],
      });
      await f.batch("secrets.batchCreate", {
        environment: "staging",
        secrets: [
          { secretKey: "DIGEST_SAME", secretValue: "same-value" },
          { secretKey: "DIGEST_DIFF", secretValue: "staging-value" },
        ],
      });
      const inDev = await digests(dev(), { includeValueDigests: "true" });
      const inStaging = await digests({ ...dev(), environment: "staging" }, { includeValueDigests: "true" });
      const same = inDev.DIGEST_SAME?.secretValueDigest;
      expect(same).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(inStaging.DIGEST_SAME?.secretValueDigest).toBe(same);
      expect(inDev.DIGEST_DIFF?.secretValueDigest).not.toBe(inStaging.DIGEST_DIFF?.secretValueDigest);
      expect(inDev.DIGEST_SAME?.secretValue).toBe("<hidden-by-infisical>");
      expect(inDev.DIGEST_SAME?.secretValueHidden).toBe(true);
      // Another project with the same value gets another digest.
      const other = (await createProject(f.svc())).id;
      await f.svc().endpoint("secrets.batchCreate", {
        body: {
          workspaceId: other,
          environment: "dev",
          secretPath: "/",
          secrets: [{ secretKey: "DIGEST_SAME", secretValue: "same-value" }],
        },
      });
      const elsewhere = await digests(
        { workspaceId: other, environment: "dev", secretPath: "/" },
        { includeValueDigests: "true" },
      );
      expect(elsewhere.DIGEST_SAME?.secretValueDigest).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(elsewhere.DIGEST_SAME?.secretValueDigest).not.toBe(same);
      // After a change the digest follows the value.
      await f.batch("secrets.batchUpdate", {
        ...dev(),
        secrets: [{ secretKey: "DIGEST_DIFF", secretValue: "staging-value" }],
      });
      const again = await digests(dev(), { includeValueDigests: "true", viewSecretValue: "true" });
      expect(again.DIGEST_DIFF?.secretValueDigest).toBe(inStaging.DIGEST_DIFF?.secretValueDigest);
    });

    it("are absent unless asked for, and for a caller who may not read the values", async () => {
      const plain = await digests(dev(), {});
      expect(Object.keys(plain)).toContain("DIGEST_SAME");
      expect(Object.values(plain).some((s) => "secretValueDigest" in s)).toBe(false);
      const token = await f.memberWith([{ subject: "secrets", action: ["describeSecret"] }]);
      const described = await digests(dev(), { includeValueDigests: "true" }, token);
      expect(Object.keys(described)).toContain("DIGEST_SAME");
      expect(Object.values(described).some((s) => "secretValueDigest" in s)).toBe(false);
      // Readable in one folder only: digests there, none elsewhere.
      const partial = await f.memberWith([
        { subject: "secrets", action: ["describeSecret"] },
        { subject: "secrets", action: ["readValue"], conditions: { secretName: { $glob: "DIGEST_SAME" } } },
      ]);
      const some = await digests(dev(), { includeValueDigests: "true" }, partial);
      expect(some.DIGEST_SAME?.secretValueDigest).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(some.DIGEST_DIFF && "secretValueDigest" in some.DIGEST_DIFF).toBe(false);
    });
  });
});
