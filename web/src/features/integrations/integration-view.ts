import type { Integration } from "@keyhold/contract";

export type SyncTone = "success" | "warning" | "neutral";

export interface SyncStatus {
  label: string;
  tone: SyncTone;
}

/**
 * Synced, not synced (a failed sync, or this service, which never syncs: a warning rather than an
 * error, nothing is broken), or not yet tried (`isSynced` is null until a first attempt).
 */
export function syncStatus(integration: Pick<Integration, "isSynced" | "isActive">): SyncStatus {
  if (integration.isSynced === true) return { label: "Synced", tone: "success" };
  if (integration.isSynced === false) return { label: "Not synced", tone: "warning" };
  return { label: integration.isActive ? "Never synced" : "Paused", tone: "neutral" };
}

/** Where the secrets go, in the provider's words: the app, else the target service or its id, else the owner. */
export function targetName(integration: Integration): string | undefined {
  const candidates = [
    integration.app,
    integration.appId,
    integration.targetService,
    integration.targetServiceId,
    integration.owner,
  ];
  return candidates.find((value): value is string => typeof value === "string" && value.trim() !== "");
}

/** A provider slug for people: `aws-parameter-store` → `AWS Parameter Store`. */
export function providerName(slug: string): string {
  const words: Record<string, string> = {
    aws: "AWS",
    gcp: "GCP",
    ci: "CI",
    circleci: "CircleCI",
    travisci: "Travis CI",
    github: "GitHub",
    gitlab: "GitLab",
    flyio: "Fly.io",
    teamcity: "TeamCity",
  };
  return slug
    .split("-")
    .map((word) => words[word] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
