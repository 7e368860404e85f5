import { z } from "zod";
import {
  authConfigRecordFields,
  IdentityIdParams,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
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
});
export type IdentityKubernetesAuth = z.infer<typeof IdentityKubernetesAuthSchema>;

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

const response = z.object({ identityKubernetesAuth: IdentityKubernetesAuthSchema });
const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

export const kubernetesAuthEndpoints = [
  defineEndpoint({
    id: "kubernetesAuth.attach",
    method: "POST",
    path: "/api/v1/auth/kubernetes-auth/identities/{identityId}",
    summary: "Attach Kubernetes auth to an identity",
    params: IdentityIdParams,
    body: AttachKubernetesAuthBodySchema,
    response,
    permission: permission("create"),
  }),
  defineEndpoint({
    id: "kubernetesAuth.update",
    method: "PATCH",
    path: "/api/v1/auth/kubernetes-auth/identities/{identityId}",
    summary: "Update an identity's Kubernetes auth",
    params: IdentityIdParams,
    body: UpdateKubernetesAuthBodySchema,
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "kubernetesAuth.get",
    method: "GET",
    path: "/api/v1/auth/kubernetes-auth/identities/{identityId}",
    summary: "Read an identity's Kubernetes auth",
    params: IdentityIdParams,
    response,
    permission: permission("read"),
  }),
] as const;
