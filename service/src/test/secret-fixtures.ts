import { endpoints } from "@keyhold/contract";
import { expect } from "vitest";
import type { CallOptions, TestService } from "./harness.ts";

/** Where a secret call works: a project, an environment slug and a folder path. */
export type Place = {
  workspaceId: string;
  environment: string;
  secretPath: string;
};

/** Creates a secret through the API (as the admin unless `options.token`); answers its id. */
export async function createSecret(
  svc: TestService,
  place: Place,
  name: string,
  body: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<string> {
  const res = await svc.endpoint(
    "secrets.create",
    { params: { secretName: name }, body: { ...place, secretValue: `value of ${name}`, ...body } },
    options,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["secrets.create"].response.parse(res.body).secret.id;
}

/** Creates a folder through the API under `parent`. */
export async function createFolder(svc: TestService, place: Omit<Place, "secretPath">, parent: string, name: string) {
  const res = await svc.endpoint("folders.create", { body: { ...place, path: parent, name } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["folders.create"].response.parse(res.body).folder;
}

/** Creates a tag through the API; answers its id. */
export async function createTag(svc: TestService, workspaceId: string, slug: string): Promise<string> {
  const res = await svc.endpoint("tags.create", { params: { workspaceId }, body: { slug, color: "#aabbcc" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["tags.create"].response.parse(res.body).workspaceTag.id;
}

/** Lists secrets as query strings, as a client sends them. */
export async function listSecrets(
  svc: TestService,
  place: Place,
  extra: Record<string, string> = {},
  options: CallOptions = {},
) {
  return svc.endpoint("secrets.list", { query: { ...place, ...extra } }, options);
}
