import { z } from "zod";

/** The one error body every layer answers with, as Infisical does. */
export const ErrorBodySchema = z
  .object({
    reqId: z.string().describe("Request id, also in the service log"),
    statusCode: z.number().int(),
    message: z
      .union([z.string(), z.array(z.unknown())])
      .describe("A sentence, or the array of validation issues on 422"),
    error: z.string().describe('Error class, for example "ValidationFailure" or "PermissionDenied"'),
    details: z.unknown().optional(),
  })
  .describe("Error");
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Validation issues as they travel in a 422 body. */
export const ValidationIssueSchema = z
  .object({
    code: z.string(),
    path: z.array(z.union([z.string(), z.number()])),
    message: z.string(),
  })
  .loose();
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const errorNames = {
  badRequest: "BadRequest",
  unauthorized: "UnauthorizedError",
  token: "TokenError",
  permissionDenied: "PermissionDenied",
  permissionBoundary: "PermissionBoundaryError",
  forbidden: "ForbiddenError",
  /** The route answers only a user's session, whatever the caller's permissions (machine identities are refused). */
  userSessionOnly: "UserSessionOnly",
  notFound: "NotFound",
  validation: "ValidationFailure",
  rateLimit: "RateLimitExceeded",
  notImplemented: "NotImplemented",
  internal: "InternalServerError",
  badGateway: "BadGateway",
  gatewayTimeout: "GatewayTimeout",
  unsupportedMediaType: "UnsupportedMediaType",
  payloadTooLarge: "PayloadTooLarge",
  serviceUnavailable: "ServiceUnavailable",
} as const;

const REQUEST_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random bytes drawn a few kilobytes at a time: one system call per ~250 ids, not one per id. */
const randomPool = new Uint8Array(4096);
let poolOffset = randomPool.length;

function randomByte(): number {
  if (poolOffset === randomPool.length) {
    crypto.getRandomValues(randomPool);
    poolOffset = 0;
  }
  return randomPool[poolOffset++] as number;
}

/** A request id as Infisical writes them: "req-" and 14 random letters or digits. */
export function newRequestId(): string {
  let id = "req-";
  while (id.length < 18) {
    const byte = randomByte();
    // 248 = 4 × 62: dropping larger bytes keeps every character equally likely.
    if (byte < 248) id += REQUEST_ID_ALPHABET[byte % 62];
  }
  return id;
}
