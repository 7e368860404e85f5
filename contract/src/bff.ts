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

export const BffSessionSchema = z.object({
  identity: z.object({ id: Uuid, name: z.string(), role: z.string() }),
  organization: z.object({ id: z.string() }),
  /** When the session ends regardless of activity. */
  expiresAt: Timestamp,
  /** When the session ends unless it is used again. */
  idleExpiresAt: Timestamp,
});
export type BffSession = z.infer<typeof BffSessionSchema>;

export const bffPaths = {
  login: "/bff/login",
  session: "/bff/session",
  logout: "/bff/logout",
} as const;

/** The header every `/api/*` and `/bff/*` request must carry. */
export const CSRF_HEADER = "x-csrf";
export const CSRF_VALUE = "1";
