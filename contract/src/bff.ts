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
  "dryRunLogin",
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
  /**
   * The person, when the session came from single sign-on: who the provider said signed in.
   * The identity above is the one the BFF signed in as on their behalf.
   */
  person: z
    .object({
      /** The ID token's `sub`. */
      subject: z.string(),
      email: z.string().optional(),
      name: z.string().optional(),
      /** The provider's display name (KEYHOLD_OIDC_PROVIDER_NAME). */
      provider: z.string(),
    })
    .optional(),
});
export type BffSession = z.infer<typeof BffSessionSchema>;

export const bffPaths = {
  login: "/bff/login",
  session: "/bff/session",
  logout: "/bff/logout",
  /** Which sign-in forms to offer; no session needed. */
  signInOptions: "/bff/sign-in-options",
  /** A navigation, not a fetch: 302 to the provider (`?returnTo=/path`, or `?test=<identityId>` for a test sign-in). */
  oidcLogin: "/bff/oidc/login",
  /** Where the provider sends the browser back (the redirect URI to register there). */
  oidcCallback: "/bff/oidc/callback",
  /** The single sign-on set-up as the BFF has it (org admins). */
  oidcSetup: "/bff/oidc/setup",
  /** The result of this session's last test sign-in (org admins). */
  oidcTest: "/bff/oidc/test",
  /** The address this browser's requests reach the service from (signed-in people). */
  clientAddress: "/bff/client-address",
} as const;

/**
 * `GET /bff/client-address`: the address the BFF forwards upstream as this browser's (X-Forwarded-For),
 * which the service checks trusted IPs against, and the BFF's trusted-proxy setting it was read by.
 */
export const ClientAddressSchema = z.object({
  /** The browser's address as forwarded; an IPv4-mapped IPv6 address is given as its IPv4 address. */
  address: z.string(),
  /** The address of the connection that reached the BFF (a proxy's, when there is one). */
  connectedFrom: z.string(),
  /** KEYHOLD_TRUSTED_PROXIES: CIDR blocks whose X-Forwarded-For the BFF believes; empty when none. */
  trustedProxies: z.array(z.string()),
  /** Whether `address` was taken from a trusted proxy's X-Forwarded-For rather than the connection. */
  viaTrustedProxy: z.boolean(),
});
export type ClientAddress = z.infer<typeof ClientAddressSchema>;

/** `GET /bff/sign-in-options`: what the sign-in page offers. */
export const SignInOptionsSchema = z.object({
  /** The access-token and client-secret forms; an operator may switch them off when SSO is on. */
  credentials: z.boolean(),
  /** Single sign-on, when it is on for everyone. */
  sso: z.object({ providerName: z.string(), loginPath: z.string() }).nullable(),
  /**
   * Why this browser's last single sign-on attempt failed, told once (then forgotten).
   * Kept server-side and tied to the browser, so a link cannot put words on the page.
   */
  failure: z.string().optional(),
});
export type SignInOptions = z.infer<typeof SignInOptionsSchema>;

/** `POST /bff/logout`: 204, or 200 with where to end the provider's session too (RP-initiated logout). */
export const BffLogoutResponseSchema = z.object({ endSessionUrl: z.url() });

/** A rule of KEYHOLD_OIDC_IDENTITY_RULES: people whose `claim` matches one of `values` sign in as `identityId`. */
export const OidcIdentityRuleSchema = z.object({
  name: z.string().trim().min(1),
  /** A claim path (`groups`, `realm_access.roles`). */
  claim: z.string().trim().min(1),
  /** Comma-separated; globs allowed; matched as the service matches bound claims. */
  values: z.string().trim().min(1),
  identityId: Uuid,
});
export type OidcIdentityRule = z.infer<typeof OidcIdentityRuleSchema>;

/** `GET /bff/oidc/setup`: the set-up page's view of the BFF's configuration. Never a secret. */
export const OidcSetupSchema = z.object({
  /**
   * off: no KEYHOLD_OIDC_ISSUER. test-only: provider configured but no identity or rules yet, so
   * only test sign-ins run. on: everyone may sign in with the provider.
   */
  mode: z.enum(["off", "test-only", "on"]),
  /** The redirect URI to register at the provider. */
  callbackUrl: z.string(),
  /** Where the provider sends the browser after sign-out (to register as a post-logout redirect URI). */
  postLogoutRedirectUrl: z.string(),
  issuer: z.string().optional(),
  clientId: z.string().optional(),
  providerName: z.string().optional(),
  scopes: z.array(z.string()),
  /** How the BFF authenticates at the token endpoint. */
  clientAuth: z.enum(["client_secret_basic", "private_key_jwt"]).optional(),
  /** KEYHOLD_OIDC_IDENTITY_ID, when set. */
  identityId: Uuid.optional(),
  rules: z.array(OidcIdentityRuleSchema),
  /** Whether the token and client-secret forms are offered. */
  credentials: z.boolean(),
  /** The provider's discovery failed: why (the set-up page shows it). */
  problem: z.string().optional(),
});
export type OidcSetup = z.infer<typeof OidcSetupSchema>;

/** `GET /bff/oidc/test`: the last test sign-in started from this session. */
export const OidcTestResultSchema = z.object({
  status: z.enum(["none", "pending", "passed", "failed"]),
  at: Timestamp.optional(),
  /** passed: who signed in and as which identity; failed: why. */
  message: z.string().optional(),
  person: z.object({ subject: z.string(), email: z.string().optional(), name: z.string().optional() }).optional(),
  identity: z.object({ id: Uuid, name: z.string() }).optional(),
});
export type OidcTestResult = z.infer<typeof OidcTestResultSchema>;

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
