import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** What every sign-in answers: a new access token and the lifetime it was given. */
export const IssuedAccessTokenSchema = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().describe("Seconds until the token expires; 0 means it does not"),
  accessTokenMaxTTL: z.number().int().describe("Seconds from issue past which it cannot be renewed; 0: no limit"),
  tokenType: z.literal("Bearer"),
});
export type IssuedAccessToken = z.infer<typeof IssuedAccessTokenSchema>;

/** The token travels in the body, never in a URL; the endpoints take no bearer token. */
export const AccessTokenBodySchema = z.object({
  accessToken: z.string().trim().min(1, "Access token is required"),
});

export const RevokedMessageSchema = z.object({ message: z.string() });

export const accessTokenEndpoints = [
  defineEndpoint({
    id: "accessTokens.renew",
    method: "POST",
    path: "/api/v1/auth/token/renew",
    summary: "Renew an identity access token: a new token for the same grant, extended by its TTL up to its max TTL",
    body: AccessTokenBodySchema,
    response: IssuedAccessTokenSchema,
    auth: "none",
  }),
  defineEndpoint({
    id: "accessTokens.revoke",
    method: "POST",
    path: "/api/v1/auth/token/revoke",
    summary: "Revoke an identity access token",
    body: AccessTokenBodySchema,
    response: RevokedMessageSchema,
    auth: "none",
  }),
] as const;
