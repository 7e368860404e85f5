import { endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  versions: endpoints["secretVersions.list"],
  createTag: endpoints["tags.create"],
};

/** Versions are read a page at a time, newest first. */
export const VERSIONS_PAGE = 20;

/** The drawer's own calls (reading and saving the secret itself go through the page's `secretsApi`). */
export const drawerApi = {
  versions: async (secretId: string, offset: number, signal?: AbortSignal) =>
    (
      await call(
        ep.versions,
        { params: { secretId }, query: { offset: String(offset), limit: String(VERSIONS_PAGE) } },
        { signal },
      )
    ).secretVersions,

  createTag: async (projectId: string, slug: string, color: string) =>
    (await call(ep.createTag, { params: { workspaceId: projectId }, body: { slug, color } })).workspaceTag,
};
