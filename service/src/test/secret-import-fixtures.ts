import { expect } from "vitest";
import type { TestService } from "./harness.ts";

/** Makes the folder at `secretPath` and each one above it, in order, through the folders API. */
export async function folderAt(svc: TestService, workspaceId: string, environment: string, secretPath: string) {
  let parent = "/";
  for (const name of secretPath.split("/").filter(Boolean)) {
    const res = await svc.endpoint("folders.create", { body: { workspaceId, environment, name, path: parent } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    parent = parent === "/" ? `/${name}` : `${parent}/${name}`;
  }
}
