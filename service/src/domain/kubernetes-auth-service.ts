import { commaList } from "@keyhold/contract";
import { z } from "zod";
import { OutboundInvalidRequestError, outboundRequest, OutboundUnreachableError } from "../lib/outbound-http.ts";
import type { IssuedToken } from "./access-tokens.ts";
import { BadGatewayError, BadRequestError, UnauthorizedError } from "./errors.ts";
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

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** `system:serviceaccount:<namespace>:<name>` → its namespace and name. */
function serviceAccountOf(username: string | undefined): { namespace: string; name: string } {
  const [namespace, name, ...rest] = (username ?? "").startsWith(SERVICE_ACCOUNT_PREFIX)
    ? (username ?? "").slice(SERVICE_ACCOUNT_PREFIX.length).split(":")
    : [];
  if (!namespace || !name || rest.length > 0) {
    throw new BadRequestError(`The reviewed token's user "${username ?? ""}" is not a service account`);
  }
  return { namespace, name };
}

/**
 * Kubernetes sign-in: the cluster's TokenReview API says whether the service account token is
 * genuine, then the configured namespaces, names and audience decide whether it may sign in.
 */
export function createKubernetesAuthService(deps: { signIn: SignIn }) {
  const { signIn } = deps;

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
      throw new UnauthorizedError(
        `The Kubernetes API refused the token review (HTTP ${answer.status})${typeof message === "string" ? `: ${message}` : ""}`,
      );
    }
    const reviewed = TokenReviewSchema.safeParse(parsed);
    if (!reviewed.success) throw new UnauthorizedError("The Kubernetes API answered the token review with no review");
    return reviewed.data.status ?? {};
  }

  return {
    async login(identityId: string, jwt: string): Promise<IssuedToken> {
      const { row, record } = await signIn.configOf(
        KUBERNETES_AUTH_METHOD,
        identityId,
        "Kubernetes auth method not found for identity, did you configure Kubernetes auth?",
      );
      const status = await review(record, jwt);
      if (status.error) throw new UnauthorizedError(`Access denied: ${status.error}`);
      if (status.authenticated !== true) {
        throw new UnauthorizedError("Access denied: the Kubernetes API did not authenticate the token");
      }
      const { namespace, name } = serviceAccountOf(status.user?.username);
      const namespaces = commaList(record.allowedNamespaces);
      if (namespaces.length > 0 && !namespaces.includes(namespace)) {
        throw new UnauthorizedError("Access denied: K8s namespace not allowed.");
      }
      const names = commaList(record.allowedNames);
      if (names.length > 0 && !names.includes(name)) {
        throw new UnauthorizedError("Access denied: K8s name not allowed.");
      }
      const audience = typeof record.allowedAudience === "string" ? record.allowedAudience.trim() : "";
      if (audience && !(status.audiences ?? []).includes(audience)) {
        throw new UnauthorizedError("Access denied: K8s audience not allowed.");
      }
      return signIn.issue(KUBERNETES_AUTH_METHOD, row);
    },
  };
}

export type KubernetesAuthService = ReturnType<typeof createKubernetesAuthService>;
