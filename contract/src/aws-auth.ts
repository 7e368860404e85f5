import { z } from "zod";
import { IssuedAccessTokenSchema } from "./access-tokens.ts";
import { authMethodEndpoints, dryRunLoginEndpoint } from "./auth-method.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const IdentityAwsAuthSchema = z.object({
  ...authConfigRecordFields,
  type: z.string(),
  stsEndpoint: z.string(),
  allowedPrincipalArns: z.string(),
  allowedAccountIds: z.string(),
  accessTokenPeriod: z.number().int().optional(),
});
export type IdentityAwsAuth = z.infer<typeof IdentityAwsAuthSchema>;

const StsEndpoint = z.url().describe("Where the signed GetCallerIdentity request is sent");

export const AttachAwsAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    stsEndpoint: StsEndpoint.default("https://sts.amazonaws.com/"),
    allowedPrincipalArns: z.string().trim().default("").describe("Comma-separated ARNs; globs allowed"),
    allowedAccountIds: z.string().trim().default("").describe("Comma-separated account ids"),
    ...tokenLifetimeDefaults,
  }),
);

export const UpdateAwsAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    stsEndpoint: StsEndpoint.optional(),
    allowedPrincipalArns: z.string().trim().optional(),
    allowedAccountIds: z.string().trim().optional(),
    ...tokenLifetimeOptional,
  }),
);

const Base64 = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, "Must be base64");

export const AwsAuthLoginBodySchema = z.object({
  identityId: Uuid.describe("The identity to sign in as"),
  iamHttpRequestMethod: z.string().trim().default("POST").describe("The signed request's method"),
  iamRequestUrl: Base64.optional().describe(
    "The signed request's URL, base64; informational: the request goes to the configured STS endpoint",
  ),
  iamRequestBody: Base64.describe("The signed GetCallerIdentity request body, base64"),
  iamRequestHeaders: Base64.min(1, "The signed request's headers are required").describe(
    "The signed request's headers as a JSON object, base64",
  ),
});

export const awsAuthEndpoints = [
  ...authMethodEndpoints({
    key: "awsAuth",
    name: "aws-auth",
    label: "AWS auth",
    envelope: "identityAwsAuth",
    record: IdentityAwsAuthSchema,
    attach: AttachAwsAuthBodySchema,
    update: UpdateAwsAuthBodySchema,
  }),
  defineEndpoint({
    id: "awsAuth.login",
    method: "POST",
    path: "/api/v1/auth/aws-auth/login",
    summary: "Sign in with a signed STS GetCallerIdentity request, which STS answers with the caller's account and ARN",
    body: AwsAuthLoginBodySchema,
    response: IssuedAccessTokenSchema,
    auth: "none",
  }),
  dryRunLoginEndpoint({
    key: "awsAuth",
    name: "aws-auth",
    label: "AWS auth",
    settings: z.object({
      stsEndpoint: StsEndpoint.optional(),
      allowedPrincipalArns: z.string().trim().optional(),
      allowedAccountIds: z.string().trim().optional(),
    }),
    credential: {
      iamHttpRequestMethod: AwsAuthLoginBodySchema.shape.iamHttpRequestMethod,
      iamRequestBody: AwsAuthLoginBodySchema.shape.iamRequestBody,
      iamRequestHeaders: AwsAuthLoginBodySchema.shape.iamRequestHeaders,
    },
  }),
] as const;
