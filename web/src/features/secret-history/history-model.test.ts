import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-error";
import type { SecretChange } from "./api";
import { commitsUnavailable, describeChanges, groupChanges } from "./history-model";

const change = (name: string, changeType: SecretChange["changeType"], type: SecretChange["type"] = "secret") => ({
  name,
  changeType,
  type,
  folderPath: "/",
  hidden: true,
});

describe("history model", () => {
  it("groups changes by what a person reads: added, removed, changed, folders and imports", () => {
    const groups = groupChanges([
      change("B", "add"),
      change("A", "add"),
      change("C", "delete"),
      change("D", "update"),
      change("app", "add", "folder"),
    ]);
    expect(groups.added.map((c) => c.name)).toEqual(["A", "B"]);
    expect(groups.removed.map((c) => c.name)).toEqual(["C"]);
    expect(groups.changed.map((c) => c.name)).toEqual(["D"]);
    expect(groups.structure.map((c) => c.name)).toEqual(["app"]);
    expect(describeChanges([change("A", "add"), change("C", "delete")])).toBe("1 added, 1 removed");
    expect(describeChanges([])).toBe("No changes");
  });

  it("tells a server without commit history from an ordinary failure", () => {
    const absent = new ApiError({
      reqId: "r",
      statusCode: 404,
      error: "NotFound",
      message: "Route GET:/api/v1/pit/commits?projectId=p not found",
    });
    // As the BFF answers a mid-2026 server's 403 "Forbidden access to /api/v1/pit/commits?…".
    const usersOnly = new ApiError({
      reqId: "r",
      statusCode: 403,
      error: "UserSessionOnly",
      message:
        "This server answers this only to a user's session, not to a machine identity (Forbidden access to /api/v1/pit/commits?projectId=p).",
    });
    const denied = new ApiError({
      reqId: "r",
      statusCode: 403,
      error: "PermissionDenied",
      message: "You are not allowed to read secrets",
    });
    const folderMissing = new ApiError({
      reqId: "r",
      statusCode: 404,
      error: "NotFound",
      message: "Folder with path '/x' in environment with slug 'dev' not found",
    });
    expect(commitsUnavailable(absent)).toMatch(/snapshots/);
    expect(commitsUnavailable(usersOnly)).toMatch(/signed-in users/);
    expect(commitsUnavailable(folderMissing)).toBeUndefined();
    expect(commitsUnavailable(denied)).toBeUndefined();
  });
});
