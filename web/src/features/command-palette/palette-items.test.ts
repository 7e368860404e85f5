import { describe, expect, it } from "vitest";
import type { PaletteProject } from "./api";
import { identityItems, orgPageItems, projectItems, searchItems, secretItems, secretsHref } from "./palette-items";

const payments: PaletteProject = {
  id: "p1",
  name: "Payments",
  environments: [
    { id: "e1", name: "Development", slug: "dev" },
    { id: "e2", name: "Production", slug: "prod" },
  ],
};
const [dev, prod] = payments.environments as [PaletteProject["environments"][0], PaletteProject["environments"][0]];

describe("secretsHref", () => {
  it("names the environment, the folder and the open secret, leaving out the root folder", () => {
    expect(secretsHref("p1", "prod", "/", "DB_URL")).toBe("/projects/p1/secrets?env=prod&secret=DB_URL");
    expect(secretsHref("p1", "dev", "/app/api", "A&B")).toBe(
      "/projects/p1/secrets?env=dev&path=%2Fapp%2Fapi&secret=A%26B",
    );
    expect(secretsHref("p1", "dev", "/app")).toBe("/projects/p1/secrets?env=dev&path=%2Fapp");
  });
});

describe("palette items", () => {
  it("offers a project's pages, environments and the action of creating a secret in each environment", () => {
    const names = projectItems(payments).map((entry) => `${entry.group}: ${entry.name} -> ${entry.href}`);
    expect(names).toContain("Projects: Payments -> /projects/p1");
    expect(names).toContain("Pages: Secret imports — Payments -> /projects/p1/secret-imports");
    expect(names).toContain("Environments: Production — Payments -> /projects/p1/secrets?env=prod");
    expect(names).toContain(
      "Actions: Create secret in Payments/Production -> /projects/p1/secrets?env=prod&create=secret",
    );
  });

  it("opens a secret key in its project, environment and folder", () => {
    const [entry] = secretItems(payments, prod, [{ secretKey: "DB_URL", secretPath: "/app" }]);
    expect(entry).toMatchObject({
      group: "Secrets",
      name: "DB_URL — Payments · Production · /app",
      href: "/projects/p1/secrets?env=prod&path=%2Fapp&secret=DB_URL",
    });
  });

  it("attaches an auth method on the identity's page, at its auth methods", () => {
    expect(identityItems([{ id: "i1", name: "ci" }]).map(({ name, href }) => [name, href])).toEqual([
      ["ci", "/identities/i1"],
      ["Attach auth method to ci", "/identities/i1#identity-auth-methods"],
    ]);
  });
});

describe("searchItems", () => {
  const items = [
    ...orgPageItems(),
    ...projectItems(payments),
    ...secretItems(payments, dev, [
      { secretKey: "STRIPE_DB_URL", secretPath: "/" },
      { secretKey: "DB_URL", secretPath: "/" },
      { secretKey: "REDIS_URL", secretPath: "/cache" },
    ]),
  ];

  it("lists only pages, actions and projects before anything is typed, in their own order", () => {
    const shown = searchItems(items, "", 50);
    expect([...new Set(shown.map((entry) => entry.group))]).toEqual(["Pages", "Actions", "Projects"]);
    // A project's pages wait for a search; the organisation's are listed.
    expect(shown.filter((entry) => entry.group === "Pages").map((entry) => entry.label)).toEqual(
      orgPageItems().map((entry) => entry.label),
    );
    expect(searchItems(items, "  ", 50)[0]?.name).toBe("Identities");
  });

  it("ranks a key starting with the text before one containing it, and matches every word anywhere", () => {
    expect(searchItems(items, "db_url", 50).map((entry) => entry.label)).toEqual(["DB_URL", "STRIPE_DB_URL"]);
    // Equally good matches: the shortest first.
    const keys = secretItems(payments, dev, [
      { secretKey: "DATABASE_REPLICA_URL", secretPath: "/" },
      { secretKey: "DATABASE_URL", secretPath: "/" },
    ]);
    expect(searchItems(keys, "database", 50).map((entry) => entry.label)).toEqual([
      "DATABASE_URL",
      "DATABASE_REPLICA_URL",
    ]);
    expect(searchItems(items, "url cache", 50).map((entry) => entry.label)).toEqual(["REDIS_URL"]);
    expect(searchItems(items, "nothing-like-this", 50)).toEqual([]);
  });

  it("lists first the group with the best match", () => {
    const found = searchItems([...items, ...identityItems([{ id: "i1", name: "ci-payments" }])], "payments", 50);
    // The project is named exactly so; pages, actions and identities only mention it.
    expect(found[0]?.name).toBe("Payments");
  });

  it("keeps at most the given number of each group", () => {
    expect(searchItems(items, "url", 1).filter((entry) => entry.group === "Secrets")).toHaveLength(1);
  });
});
