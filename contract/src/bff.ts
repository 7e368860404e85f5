import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";

/**
 * The BFF's own endpoints (`/bff/*`). They are not forwarded upstream; the SPA
 * calls them to sign in, learn who is signed in and sign out.
 */
export const BffLoginBodySchema = z.union([
  z.object({ accessToken: z.string().trim().min(1, "Paste an access token") }).strict(),
  z
    .object({
      clientId: z.string().trim().min(1, "Client ID is required"),
      clientSecret: z.string().trim().min(1, "Client secret is required"),
    })
    .strict(),
]);
export type BffLoginBody = z.infer<typeof BffLoginBodySchema>;

/** Server features the console adapts to; a server of an older version may lack some. */
export const serverFeatureNames = [
  "auditChainVerification",
  "auditStreamDelivery",
  "auditLogs",
  "deleteProtection",
  "multipleAuthMethods",
  "orgAuditRetention",
  "privilegesV2",
  "projectDescription",
] as const;
export type ServerFeatureName = (typeof serverFeatureNames)[number];

export const ServerFeatureSchema = z.object({
  name: z.enum(serverFeatureNames),
  available: z.boolean(),
  /** Why it is unavailable, in one sentence the console can show. */
  reason: z.string().optional(),
});
export type ServerFeature = z.infer<typeof ServerFeatureSchema>;

export const BffSessionSchema = z.object({
  identity: z.object({ id: Uuid, name: z.string(), role: z.string() }),
  organization: z.object({ id: z.string() }),
  /** When the session ends regardless of activity. */
  expiresAt: Timestamp,
  /** When the session ends unless it is used again. */
  idleExpiresAt: Timestamp,
  /** What the upstream server has been seen to support. */
  server: z.object({ features: z.array(ServerFeatureSchema) }),
});
export type BffSession = z.infer<typeof BffSessionSchema>;

export const bffPaths = {
  login: "/bff/login",
  session: "/bff/session",
  logout: "/bff/logout",
} as const;

/**
 * On every forwarded answer: the features the upstream has been seen to lack, by name, sorted and
 * comma-separated ("none" when it lacks none). The BFF learns them from answers as they come, so
 * the console compares this with its session and reads the session again when they differ.
 */
export const SERVER_FEATURES_HEADER = "keyhold-unavailable-features";

/** The header's value for a list of features. */
export function unavailableFeaturesStamp(features: readonly ServerFeature[]): string {
  const missing = features.filter((f) => !f.available).map((f) => f.name);
  return missing.length === 0 ? "none" : missing.sort().join(",");
}

/** The header every `/api/*` and `/bff/*` request must carry. */
export const CSRF_HEADER = "x-csrf";
export const CSRF_VALUE = "1";
