import { endpoints } from "@keyhold/contract";
import type { UpstreamCompat } from "../compat/upstream-compat.ts";
import type { RequestContext } from "./sign-in.ts";

const revoke = endpoints["accessTokens.revoke"];

/** Gives an upstream access token back; a failure is logged, not thrown (the token then lives out its TTL). */
export async function revokeUpstreamToken(
  compat: UpstreamCompat,
  accessToken: string,
  context: RequestContext,
): Promise<void> {
  try {
    const answer = await compat.call(
      {
        endpoint: revoke,
        params: {},
        search: "",
        body: { accessToken },
        accessToken: undefined,
        clientIp: context.clientIp,
        reqId: context.reqId,
      },
      context.log,
    );
    if (answer.status !== 200) context.log.warn({ upstreamStatus: answer.status }, "an access token was not revoked");
  } catch (error) {
    context.log.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      "an access token was not revoked",
    );
  }
}
