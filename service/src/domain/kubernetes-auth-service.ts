import type { DryRunLoginResult } from "@keyhold/contract";
import { firstRefusal, kubernetesChecks } from "@keyhold/contract/credential-rules";
import { z } from "zod";
import { OutboundInvalidRequestError, outboundRequest, OutboundUnreachableError } from "../lib/outbound-http.ts";
import type { Actor, IssuedToken } from "./access-tokens.ts";
import type { AuthMethodService } from "./auth-method-service.ts";
import { dryRunSettings, peerFailure, refuseWith } from "./dry-run-login.ts";
import { BadGatewayError, BadRequestError, PeerRefusedError } from "./errors.ts";
import type { SignIn } from "./sign-in.ts";

export const KUBERNETES_AUTH_METHOD = "kubernetes-auth";

/** The part of a TokenReview answer the login reads (authentication.k8s.io/v1). */
const TokenReviewSchema = z.object({
  status: z
    .object({
      authenticated: z.boolean().optional(),
      error: z.string().optional(),
      user: z.object({ username: z.string().optional() }).optional(),
      audiences: z.array(z.string()).optional(),
    })
    .optional(),
});

/**
 * Kubernetes sign-in: the cluster's TokenReview API says whether the service account token is
 * genuine, then the configured namespaces, names and audience decide whether it may sign in.
 */
export function createKubernetesAuthService(deps: { signIn: SignIn; authMethods: AuthMethodService }) {
  const { signIn, authMethods } = deps;

  async function review(settings: Record<string, unknown>, jwt: string) {
    const host = typeof settings.kubernetesHost === "string" ? settings.kubernetesHost : "";
    if (settings.tokenReviewMode === "gateway" || !host) {
      throw new BadRequestError("Token review through a gateway is not supported; configure a Kubernetes host");
    }
    const audience = typeof settings.allowedAudience === "string" ? settings.allowedAudience : "";
    // Without a reviewer JWT, the service account token reviews itself (it needs the review permission).
    const reviewer =
      typeof settings.tokenReviewerJwt === "string" && settings.tokenReviewerJwt ? settings.tokenReviewerJwt : jwt;
    let answer: { status: number; text: string };
    try {
      answer = await outboundRequest({
        url: `${host.replace(/\/+$/, "")}/apis/authentication.k8s.io/v1/tokenreviews`,
        method: "POST",
        headers: {
          authorization: `Bearer ${reviewer}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify({
          apiVersion: "authentication.k8s.io/v1",
          kind: "TokenReview",
          spec: { token: jwt, ...(audience && { audiences: [audience] }) },
        }),
        caCert: typeof settings.caCert === "string" ? settings.caCert : undefined,
      });
    } catch (error) {
      if (error instanceof OutboundUnreachableError) {
        throw new BadGatewayError("The Kubernetes API server could not be reached for the token review");
      }
      if (error instanceof OutboundInvalidRequestError) {
        throw new BadRequestError(
          "The token review cannot be sent: the token, the reviewer JWT or the Kubernetes host is not valid in an HTTP request",
        );
      }
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      parsed = undefined;
    }
    if (answer.status < 200 || answer.status >= 300) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new PeerRefusedError(
        `The Kubernetes API refused the token review (HTTP ${answer.status})${typeof message === "string" ? `: ${message}` : ""}`,
        answer.status,
      );
    }
    const reviewed = TokenReviewSchema.safeParse(parsed);
    if (!reviewed.success) {
      throw new PeerRefusedError("The Kubernetes API answered the token review with no review", answer.status);
    }
    const status = reviewed.data.status ?? {};
    if (status.error) throw new PeerRefusedError(`Access denied: ${status.error}`, answer.status);
    if (status.authenticated !== true) {
      throw new PeerRefusedError("Access denied: the Kubernetes API did not authenticate the token", answer.status);
    }
    return { username: status.user?.username, audiences: status.audiences ?? [], peerStatus: answer.status };
  }

  return {
    async login(identityId: string, jwt: string): Promise<IssuedToken> {
      const { row, record } = await signIn.configOf(
        KUBERNETES_AUTH_METHOD,
        identityId,
        "Kubernetes auth method not found for identity, did you configure Kubernetes auth?",
      );
      const reviewed = await review(record, jwt);
      refuseWith(firstRefusal(kubernetesChecks(record, reviewed)));
      return signIn.issue(KUBERNETES_AUTH_METHOD, row);
    },

    /**
     * The login against settings a form has not saved: the same token review at the host (with
     * the reviewer JWT given or stored), then every shared rule; no token, no login recorded.
     */
    async dryRun(actor: Actor, identityId: string, input: { settings: Record<string, unknown>; jwt: string }) {
      const settings = await dryRunSettings(authMethods, actor, KUBERNETES_AUTH_METHOD, identityId, input.settings, {
        defaults: { caCert: "", tokenReviewMode: "api" },
        required: ["kubernetesHost"],
      });
      let reviewed: Awaited<ReturnType<typeof review>>;
      try {
        reviewed = await review(settings, input.jwt);
      } catch (error) {
        return peerFailure(error);
      }
      const checks = kubernetesChecks(settings, reviewed);
      const refusal = firstRefusal(checks);
      return {
        accepted: refusal === undefined,
        peer: {
          ok: true,
          message: `The token review authenticated ${reviewed.username ?? "a user with no name"}${
            reviewed.audiences.length > 0 ? ` for ${reviewed.audiences.join(", ")}` : ""
          }`,
          statusCode: reviewed.peerStatus,
        },
        checks,
        ...(refusal && { refusal }),
      } satisfies DryRunLoginResult;
    },
  };
}

export type KubernetesAuthService = ReturnType<typeof createKubernetesAuthService>;
