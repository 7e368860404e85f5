import type { DryRunLoginResult } from "@keyhold/contract";
import { awsChecks, firstRefusal } from "@keyhold/contract/credential-rules";
import { OutboundInvalidRequestError, outboundRequest, OutboundUnreachableError } from "../lib/outbound-http.ts";
import type { Actor, IssuedToken } from "./access-tokens.ts";
import type { AuthMethodService } from "./auth-method-service.ts";
import { dryRunSettings, peerFailure, refuseWith } from "./dry-run-login.ts";
import { BadGatewayError, BadRequestError, PeerRefusedError } from "./errors.ts";
import type { SignIn } from "./sign-in.ts";

export const AWS_AUTH_METHOD = "aws-auth";

export interface AwsLoginInput {
  identityId: string;
  iamHttpRequestMethod: string;
  iamRequestBody: string;
  iamRequestHeaders: string;
}

/** The SigV4 credential scope's region: `Credential=<key>/<date>/<region>/sts/aws4_request`. */
const CREDENTIAL_REGION = /Credential=[^/,\s]+\/\d{8}\/([^/,\s]*)\/sts\/aws4_request/;
const REGION = /^[a-z0-9-]{1,20}$/;

function decodeHeaders(encoded: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new BadRequestError("iamRequestHeaders must be a base64-encoded JSON object of the signed request's headers");
  }
  // Content-Length is set again for the body as sent; every other header goes as signed.
  return Object.fromEntries(
    Object.entries(parsed)
      .filter(([name]) => name.toLowerCase() !== "content-length")
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]),
  );
}

function xmlText(xml: string, element: string): string | undefined {
  return new RegExp(`<${element}>([^<]*)</${element}>`).exec(xml)?.[1]?.trim();
}

/**
 * AWS sign-in: the caller signs an STS GetCallerIdentity request with its credentials and sends
 * it to us instead of to AWS; we send it on to the configured STS endpoint, and STS's answer
 * (which account, which principal) is checked against the allowed account ids and ARNs.
 */
export function createAwsAuthService(deps: { signIn: SignIn; authMethods: AuthMethodService }) {
  const { signIn, authMethods } = deps;

  async function callerIdentity(stsEndpoint: string, input: AwsLoginInput) {
    const headers = decodeHeaders(input.iamRequestHeaders);
    const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === "authorization")?.[1];
    const region = authorization && CREDENTIAL_REGION.exec(authorization)?.[1];
    if (!region || !REGION.test(region)) throw new BadRequestError("Invalid AWS region");
    let answer: { status: number; text: string };
    try {
      answer = await outboundRequest({
        url: stsEndpoint,
        method: input.iamHttpRequestMethod,
        headers,
        body: Buffer.from(input.iamRequestBody, "base64").toString("utf8"),
      });
    } catch (error) {
      if (error instanceof OutboundUnreachableError) {
        throw new BadGatewayError("The STS endpoint could not be reached to check the signed request");
      }
      if (error instanceof OutboundInvalidRequestError) {
        throw new BadRequestError("The signed request cannot be sent to STS: its method or a header is not valid HTTP");
      }
      throw error;
    }
    if (answer.status < 200 || answer.status >= 300) {
      const message = xmlText(answer.text, "Message");
      throw new PeerRefusedError(
        `Access denied: STS refused the signed request (HTTP ${answer.status})${message ? `: ${message}` : ""}`,
        answer.status,
      );
    }
    const account = xmlText(answer.text, "Account");
    const arn = xmlText(answer.text, "Arn");
    if (!account || !arn) {
      throw new PeerRefusedError("Access denied: STS answered without an account and ARN", answer.status);
    }
    return { account, arn, peerStatus: answer.status };
  }

  return {
    async login(input: AwsLoginInput): Promise<IssuedToken> {
      const { row, record } = await signIn.configOf(
        AWS_AUTH_METHOD,
        input.identityId,
        "AWS auth method not found for identity, did you configure AWS auth?",
      );
      const caller = await callerIdentity(String(record.stsEndpoint ?? ""), input);
      refuseWith(firstRefusal(awsChecks(record, caller)));
      return signIn.issue(AWS_AUTH_METHOD, row);
    },

    /**
     * The login against settings a form has not saved: the same signed request sent on to the
     * STS endpoint, then every shared rule; no token, no login recorded.
     */
    async dryRun(
      actor: Actor,
      identityId: string,
      input: Omit<AwsLoginInput, "identityId"> & { settings: Record<string, unknown> },
    ) {
      const settings = await dryRunSettings(authMethods, actor, AWS_AUTH_METHOD, identityId, input.settings, {
        defaults: { stsEndpoint: "https://sts.amazonaws.com/" },
        required: [],
      });
      let caller: Awaited<ReturnType<typeof callerIdentity>>;
      try {
        caller = await callerIdentity(String(settings.stsEndpoint ?? ""), { ...input, identityId });
      } catch (error) {
        return peerFailure(error);
      }
      const checks = awsChecks(settings, caller);
      const refusal = firstRefusal(checks);
      return {
        accepted: refusal === undefined,
        peer: {
          ok: true,
          message: `STS named the caller ${caller.arn} in account ${caller.account}`,
          statusCode: caller.peerStatus,
        },
        checks,
        ...(refusal && { refusal }),
      } satisfies DryRunLoginResult;
    },
  };
}

export type AwsAuthService = ReturnType<typeof createAwsAuthService>;
