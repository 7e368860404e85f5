import { describe, expect, it } from "vitest";
import type { ImportedSecrets, ListedImportedSecret, ListedSecret } from "./api";
import { filterSecrets } from "./secret-filter";
import { folderListing, type SecretListRow } from "./secret-rows";

const own = (secretKey: string, tags: string[] = []) =>
  ({
    id: `own-${secretKey}`,
    secretKey,
    tags: tags.map((slug) => ({ id: slug, slug, name: slug, color: null })),
  }) as unknown as ListedSecret;
const provided = (secretKey: string, environment: string) =>
  ({ id: `${environment}-${secretKey}`, secretKey, environment }) as unknown as ListedImportedSecret;
const source = (environment: string, secretPath: string, ...keys: string[]): ImportedSecrets => ({
  environment,
  secretPath,
  secrets: keys.map((key) => provided(key, environment)),
});

/** Each row as `KEY` (own) or `KEY<env:/path`, with `>env:/path` for each import it overrides. */
const describeRow = (row: SecretListRow) =>
  [
    row.secretKey,
    row.importedFrom ? `<${row.importedFrom.environment}:${row.importedFrom.secretPath}` : "",
    ...row.overrides.map((o) => ` >${o.environment}:${o.secretPath}`),
  ].join("");

describe("folderListing", () => {
  const shared = source("dev", "/shared", "LOG_LEVEL", "API_KEY", "SENTRY_DSN");
  const database = source("dev", "/database", "DB_URL", "API_KEY");

  it("lists the keys the folder lacks from its imports, in key order, each from the import placed last", () => {
    const listing = folderListing({ secrets: [own("APP_NAME"), own("ZONE")], imports: [shared, database] });
    expect(listing.rows.secrets.map(describeRow)).toEqual([
      "API_KEY<dev:/database >dev:/shared",
      "APP_NAME",
      "DB_URL<dev:/database",
      "LOG_LEVEL<dev:/shared",
      "SENTRY_DSN<dev:/shared",
      "ZONE",
    ]);
    expect(listing.importedCount).toBe(4);
    // The imported row carries the supplying import's secret (never a value: the list has none).
    expect(listing.rows.secrets[0]?.secret).toBe(database.secrets[1]);
  });

  it("marks the folder's own secrets that override imports, and lists those keys once", () => {
    const listing = folderListing({ secrets: [own("API_KEY"), own("LOG_LEVEL")], imports: [shared, database] });
    expect(listing.rows.secrets.map(describeRow)).toEqual([
      "API_KEY >dev:/shared >dev:/database",
      "DB_URL<dev:/database",
      "LOG_LEVEL >dev:/shared",
      "SENTRY_DSN<dev:/shared",
    ]);
    expect(listing.importedCount).toBe(2);
  });

  it("keeps the own secrets as they were when no import provides anything", () => {
    const secrets = [own("B"), own("A")];
    const listing = folderListing({ secrets, imports: [source("prod", "/empty")] });
    expect(listing.rows.secrets.map((row) => row.secret)).toEqual(secrets);
    expect(listing.secrets).toBe(secrets);
    expect(listing.importedCount).toBe(0);
  });

  it("indexes imported rows for the filter like the folder's own", () => {
    const listing = folderListing({ secrets: [own("APP_NAME", ["core"])], imports: [shared] });
    expect(filterSecrets(listing.rows, "api", undefined).map((row) => row.secretKey)).toEqual(["API_KEY"]);
    expect(filterSecrets(listing.rows, "", "core").map((row) => row.secretKey)).toEqual(["APP_NAME"]);
  });

  it("lists a key an import holds twice once", () => {
    const twice = source("dev", "/shared", "TOKEN", "TOKEN");
    expect(folderListing({ secrets: [], imports: [twice] }).rows.secrets.map(describeRow)).toEqual([
      "TOKEN<dev:/shared",
    ]);
  });
});
