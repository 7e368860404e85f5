import { z } from "zod";
import { IssuedAccessTokenSchema } from "./access-tokens.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
import { authMethodEndpoints, dryRunLoginEndpoint } from "./auth-method.ts";
import { defineEndpoint } from "./endpoint.ts";

const KubernetesHost = z
  .string()
  .trim()
  .min(1)
  .regex(
    /^[A-Za-z0-9:./-]+$/,
    "The Kubernetes host may contain only letters, digits, colons, periods, hyphens and slashes",
  );

export const TokenReviewMode = z.enum(["api", "gateway"]);

export const IdentityKubernetesAuthSchema = z.object({
  ...authConfigRecordFields,
  kubernetesHost: z.string().nullable(),
  caCert: z.string(),
  tokenReviewerJwt: z.string().nullable().optional(),
  tokenReviewMode: z.string(),
  allowedNamespaces: z.string(),
  allowedNames: z.string(),
  allowedAudience: z.string(),
  gatewayId: Uuid.nullable().optional(),
  gatewayPoolId: Uuid.nullable().optional(),
  verifyTlsCertificate: z.boolean().optional(),
});
export type IdentityKubernetesAuth = z.infer<typeof IdentityKubernetesAuthSchema>;

/** The configuration as revoke answers it: Infisical leaves out the CA certificate and the reviewer JWT. */
export const RevokedKubernetesAuthSchema = IdentityKubernetesAuthSchema.omit({ caCert: true, tokenReviewerJwt: true });

const reviewModeNeeds = (v: { tokenReviewMode?: string; kubernetesHost?: string | null; gatewayId?: string | null }) =>
  (v.tokenReviewMode !== "api" || !!v.kubernetesHost) && (v.tokenReviewMode !== "gateway" || !!v.gatewayId);

export const AttachKubernetesAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    kubernetesHost: KubernetesHost.nullable().optional(),
    caCert: z.string().trim().default(""),
    tokenReviewerJwt: z.string().trim().optional(),
    tokenReviewMode: TokenReviewMode.default("api"),
    allowedNamespaces: z.string().trim().describe("Comma-separated; empty allows all"),
    allowedNames: z.string().trim().describe("Comma-separated; empty allows all"),
    allowedAudience: z.string().trim(),
    gatewayId: Uuid.nullable().optional(),
    ...tokenLifetimeDefaults,
  }),
).refine(reviewModeNeeds, {
  message: 'Review mode "api" needs a Kubernetes host and mode "gateway" needs a gateway',
  path: ["tokenReviewMode"],
});

export const UpdateKubernetesAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    kubernetesHost: KubernetesHost.nullable().optional(),
    caCert: z.string().trim().optional(),
    tokenReviewerJwt: z.string().trim().nullable().optional().describe("null clears the stored reviewer JWT"),
    tokenReviewMode: TokenReviewMode.optional(),
    allowedNamespaces: z.string().trim().optional(),
    allowedNames: z.string().trim().optional(),
    allowedAudience: z.string().trim().optional(),
    gatewayId: Uuid.nullable().optional(),
    ...tokenLifetimeOptional,
  }),
);

export const KubernetesAuthLoginBodySchema = z.object({
  identityId: Uuid.describe("The identity to sign in as"),
  jwt: z.string().trim().min(1, "The service account token is required").describe("A service account token"),
});

export const kubernetesAuthEndpoints = [
  ...authMethodEndpoints({
    key: "kubernetesAuth",
    name: "kubernetes-auth",
    label: "Kubernetes auth",
    envelope: "identityKubernetesAuth",
    record: IdentityKubernetesAuthSchema,
    revoked: RevokedKubernetesAuthSchema,
    attach: AttachKubernetesAuthBodySchema,
    update: UpdateKubernetesAuthBodySchema,
  }),
  defineEndpoint({
    id: "kubernetesAuth.login",
    method: "POST",
    path: "/api/v1/auth/kubernetes-auth/login",
    summary: "Sign in with a Kubernetes service account token, which the cluster's TokenReview API vouches for",
    body: KubernetesAuthLoginBodySchema,
    response: IssuedAccessTokenSchema,
    auth: "none",
  }),
  dryRunLoginEndpoint({
    key: "kubernetesAuth",
    name: "kubernetes-auth",
    label: "Kubernetes auth",
    settings: z.object({
      kubernetesHost: z.url().optional(),
      caCert: z.string().trim().optional(),
      tokenReviewerJwt: z.string().trim().optional(),
      allowedNamespaces: z.string().trim().optional(),
      allowedNames: z.string().trim().optional(),
      allowedAudience: z.string().trim().optional(),
    }),
    credential: { jwt: KubernetesAuthLoginBodySchema.shape.jwt },
  }),
] as const;
