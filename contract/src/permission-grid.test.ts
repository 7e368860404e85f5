import { describe, expect, it } from "vitest";
import { type ProjectRule, predefinedProjectRoles } from "./permission-engine.ts";
import {
  type AccessCell,
  diffAccess,
  type EnvironmentScope,
  evaluateScope,
  type GrantSource,
  grantChangeMoments,
  grantsActiveAt,
  groupChanges,
  secretActions,
} from "./permission-grid.ts";

/*
 * The grid a permission-change preview compares: what rules allow over a project's environments
 * and folders, and which rule decides each answer. Runs with the engine's suite in the contract's,
 * the service's and the console's test runs.
 */

const scope: EnvironmentScope[] = [
  { slug: "dev", folders: ["/app", "/app/db"] },
  { slug: "prod", folders: ["/", "/app", "/app/db", "/billing"] },
];

const role = (slug: string, rules: ProjectRule[]): GrantSource => ({ kind: "role", slug, name: slug, rules });
const cell = (cells: AccessCell[], environment: string, folder: string, action: string) => {
  const found = cells.find((c) => c.environment === environment && c.folder === folder && c.action === action);
  if (!found) throw new Error(`no cell ${environment} ${folder} ${action}`);
  return found;
};

describe("evaluateScope", () => {
  it("answers every environment × folder × action, the root folder included once", () => {
    const cells = evaluateScope([], scope);
    expect(cells).toHaveLength((3 + 4) * secretActions.length);
    expect(cells.filter((c) => c.environment === "prod" && c.folder === "/")).toHaveLength(secretActions.length);
    expect(cells.every((c) => !c.allowed && c.decidedBy === null)).toBe(true);
  });

  it("names the allow rule that grants, with its source", () => {
    const rule: ProjectRule = {
      subject: "secrets",
      action: ["readValue"],
      conditions: { environment: "prod", secretPath: { $glob: "/app/**" } },
    };
    const cells = evaluateScope([role("reader", [rule])], scope);
    const granted = cell(cells, "prod", "/app/db", "readValue");
    expect(granted.allowed).toBe(true);
    expect(granted.decidedBy).toEqual({
      source: { kind: "role", slug: "reader", name: "reader" },
      rule: { ...rule, inverted: false },
    });
    expect(cell(cells, "prod", "/billing", "readValue").allowed).toBe(false);
    expect(cell(cells, "dev", "/app", "readValue").allowed).toBe(false);
    expect(cell(cells, "prod", "/app", "describe").allowed).toBe(false);
  });

  it("uses the service's read semantics: legacy read reveals and lists, describeSecret only lists", () => {
    const cells = evaluateScope(
      [
        role("legacy", [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }]),
        role("lister", [{ subject: "secrets", action: ["describeSecret"], conditions: { environment: "prod" } }]),
      ],
      scope,
    );
    expect(cell(cells, "dev", "/app", "readValue").allowed).toBe(true);
    expect(cell(cells, "dev", "/app", "describe").decidedBy?.source.slug).toBe("legacy");
    expect(cell(cells, "prod", "/app", "describe").decidedBy?.source.slug).toBe("lister");
    expect(cell(cells, "prod", "/app", "readValue").allowed).toBe(false);
  });

  it("names the deny rule that refuses, from whichever source holds it", () => {
    const deny: ProjectRule = {
      subject: "secrets",
      action: ["readValue", "edit"],
      conditions: { secretPath: "/billing" },
      inverted: true,
    };
    const cells = evaluateScope(
      [
        role("member", predefinedProjectRoles.member.permissions),
        { kind: "privilege", slug: "no-billing", name: "no-billing", rules: [deny] },
      ],
      scope,
    );
    const refused = cell(cells, "prod", "/billing", "edit");
    expect(refused.allowed).toBe(false);
    expect(refused.decidedBy?.source).toEqual({ kind: "privilege", slug: "no-billing", name: "no-billing" });
    expect(refused.decidedBy?.rule.inverted).toBe(true);
    expect(cell(cells, "prod", "/app", "edit").decidedBy?.source.slug).toBe("member");
    // The member role's legacy read still lists the folder the deny keeps values of.
    expect(cell(cells, "prod", "/billing", "describe").allowed).toBe(true);
  });

  it("a secret-name condition decides nothing at folder level", () => {
    const cells = evaluateScope(
      [role("one-key", [{ subject: "secrets", action: ["readValue"], conditions: { secretName: "API_KEY" } }])],
      scope,
    );
    expect(cells.some((c) => c.allowed)).toBe(false);
  });
});

describe("diffAccess and groupChanges", () => {
  const prodRead: ProjectRule = {
    subject: "secrets",
    action: ["readValue", "describeSecret"],
    conditions: { environment: "prod" },
  };
  const devRead: ProjectRule = { subject: "secrets", action: ["readValue"], conditions: { environment: "dev" } };

  it("lists losses and gains with the rules that decided them", () => {
    const before = evaluateScope([role("ops", [prodRead])], scope);
    const after = evaluateScope([role("ops", [devRead])], scope);
    const changes = diffAccess(before, after);
    const lost = changes.filter((c) => c.change === "loses");
    const gained = changes.filter((c) => c.change === "gains");
    expect(lost).toHaveLength(4 * 2);
    expect(gained).toHaveLength(3);
    expect(lost.find((c) => c.folder === "/app/db" && c.action === "readValue")?.before?.rule.conditions).toEqual({
      environment: "prod",
    });
    expect(gained[0]?.after?.source.slug).toBe("ops");
  });

  it("a loss another role covers is no loss", () => {
    const other = role("viewer", predefinedProjectRoles.viewer.permissions);
    const before = evaluateScope([role("ops", [prodRead]), other], scope);
    const after = evaluateScope([role("ops", []), other], scope);
    expect(diffAccess(before, after)).toEqual([]);
  });

  it("groups identical changes per action and environment, losses first", () => {
    const before = evaluateScope([role("ops", [prodRead])], scope);
    const after = evaluateScope([role("ops", [devRead])], scope);
    expect(groupChanges(diffAccess(before, after))).toEqual([
      { change: "loses", action: "readValue", environment: "prod", folders: ["/", "/app", "/app/db", "/billing"] },
      { change: "loses", action: "describe", environment: "prod", folders: ["/", "/app", "/app/db", "/billing"] },
      { change: "gains", action: "readValue", environment: "dev", folders: ["/", "/app", "/app/db"] },
    ]);
  });

  it("a cell missing from the new grid is a loss (an environment that went away)", () => {
    const before = evaluateScope([role("ops", [prodRead])], scope);
    const after = evaluateScope([role("ops", [prodRead])], scope.slice(0, 1));
    expect(diffAccess(before, after).every((c) => c.change === "loses" && c.environment === "prod")).toBe(true);
    expect(diffAccess(before, after)).toHaveLength(8);
  });
});

describe("grid properties over generated rules", () => {
  // Every combination of a few actions, conditions and deny flags: small enough to run whole.
  const actions = [["read"], ["readValue"], ["describeSecret"], ["create", "edit"], ["delete"]];
  const conditions: (Record<string, unknown> | undefined)[] = [
    undefined,
    { environment: "prod" },
    { secretPath: { $glob: "/app/**" } },
    { environment: { $in: ["dev", "prod"] }, secretPath: { $eq: "/billing" } },
    { environment: { $ne: "dev" }, secretPath: { $glob: "/*" } },
  ];
  const rules: ProjectRule[] = [];
  for (const action of actions) {
    for (const condition of conditions) {
      for (const inverted of [false, true]) {
        rules.push({ subject: "secrets", action, ...(condition && { conditions: condition }), inverted });
      }
    }
  }
  // Deterministic sets of 0–3 rules drawn from the list.
  const sets: ProjectRule[][] = [];
  for (let seed = 0; seed < 60; seed++) {
    const size = seed % 4;
    sets.push(Array.from({ length: size }, (_, i) => rules[(seed * 7 + i * 13) % rules.length] as ProjectRule));
  }

  it("a grid compared with itself has no changes", () => {
    for (const set of sets) {
      const grid = evaluateScope([role("r", set)], scope);
      expect(diffAccess(grid, grid)).toEqual([]);
    }
  });

  it("adding an allow rule never causes a loss; adding a deny rule never causes a gain", () => {
    for (const set of sets) {
      const before = evaluateScope([role("r", set)], scope);
      for (const extra of rules) {
        const after = evaluateScope([role("r", set), role("extra", [extra])], scope);
        const kinds = new Set(diffAccess(before, after).map((c) => c.change));
        expect(kinds.has(extra.inverted ? "gains" : "loses"), JSON.stringify({ set, extra })).toBe(false);
      }
    }
  });

  it("the gains one way are the losses the other way", () => {
    for (let i = 0; i + 1 < sets.length; i++) {
      const a = evaluateScope([role("r", sets[i] ?? [])], scope);
      const b = evaluateScope([role("r", sets[i + 1] ?? [])], scope);
      const key = (c: { environment: string; folder: string; action: string }) =>
        `${c.environment}${c.folder}${c.action}`;
      const gains = diffAccess(a, b)
        .filter((c) => c.change === "gains")
        .map(key)
        .sort();
      const losses = diffAccess(b, a)
        .filter((c) => c.change === "loses")
        .map(key)
        .sort();
      expect(gains).toEqual(losses);
    }
  });
});

describe("grants over time", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const hour = 3_600_000;
  const grants = [
    { id: "permanent", isTemporary: false, temporaryAccessEndTime: null },
    { id: "ends-in-1h", isTemporary: true, temporaryAccessEndTime: new Date(now + hour).toISOString() },
    { id: "ends-in-3h", isTemporary: true, temporaryAccessEndTime: new Date(now + 3 * hour) },
    { id: "also-3h", isTemporary: true, temporaryAccessEndTime: new Date(now + 3 * hour).toISOString() },
    { id: "ended", isTemporary: true, temporaryAccessEndTime: new Date(now - hour).toISOString() },
  ];

  it("counts a temporary grant until its end, as the service does", () => {
    const ids = (t: number) => grantsActiveAt(grants, t).map((g) => g.id);
    expect(ids(now)).toEqual(["permanent", "ends-in-1h", "ends-in-3h", "also-3h"]);
    expect(ids(now + hour)).toEqual(["permanent", "ends-in-3h", "also-3h"]);
    expect(ids(now + 3 * hour)).toEqual(["permanent"]);
  });

  it("the moments access changes are the end times still ahead, each once", () => {
    expect(grantChangeMoments(grants, now)).toEqual([now + hour, now + 3 * hour]);
    expect(grantChangeMoments(grants, now + 2 * hour)).toEqual([now + 3 * hour]);
    expect(grantChangeMoments(grants, now + 3 * hour)).toEqual([]);
  });

  it("between two moments the set of active grants does not change", () => {
    const moments = [now, ...grantChangeMoments(grants, now)];
    for (let i = 0; i + 1 < moments.length; i++) {
      const start = moments[i] as number;
      const end = moments[i + 1] as number;
      expect(grantsActiveAt(grants, end - 1)).toEqual(grantsActiveAt(grants, start));
      expect(grantsActiveAt(grants, end)).not.toEqual(grantsActiveAt(grants, start));
    }
  });
});
