import { randomUUID } from "node:crypto";
import type { AuthMethodName } from "../data/auth-methods.ts";

/**
 * Each auth method as data: which wire fields are its own settings, which are credentials
 * (sealed at rest), which trusted-IP lists it has besides the access token's, and the fields a
 * record always carries. One service (auth-method-service.ts) serves all five from these.
 */
export interface AuthMethodSpec {
  name: AuthMethodName;
  label: string;
  /** The contract's endpoint id prefix. */
  key: "tokenAuth" | "universalAuth" | "kubernetesAuth" | "oidcAuth" | "awsAuth";
  envelope: string;
  /** Method-specific fields stored as given (the attach body carries their defaults). */
  settings: readonly string[];
  /** Credential fields, stored sealed; null or absent means none is set. */
  credentials?: readonly string[];
  /** Trusted-IP lists besides accessTokenTrustedIps, validated and stored the same way. */
  ipLists?: readonly string[];
  /** Settings a new configuration gets that no body carries. */
  generated?: () => Record<string, unknown>;
  /** Fields every record of this method carries with a fixed value (features this service lacks). */
  fixed?: Record<string, unknown>;
  /** Whether the record carries accessTokenPeriod (OIDC records do not). */
  period: boolean;
}

export const authMethodSpecs: Record<AuthMethodName, AuthMethodSpec> = {
  "token-auth": {
    name: "token-auth",
    label: "Token auth",
    key: "tokenAuth",
    envelope: "identityTokenAuth",
    settings: [],
    period: true,
  },
  "universal-auth": {
    name: "universal-auth",
    label: "Universal auth",
    key: "universalAuth",
    envelope: "identityUniversalAuth",
    settings: ["lockoutEnabled", "lockoutThreshold", "lockoutDurationSeconds", "lockoutCounterResetSeconds"],
    ipLists: ["clientSecretTrustedIps"],
    generated: () => ({ clientId: randomUUID() }),
    period: true,
  },
  "kubernetes-auth": {
    name: "kubernetes-auth",
    label: "Kubernetes auth",
    key: "kubernetesAuth",
    envelope: "identityKubernetesAuth",
    settings: [
      "kubernetesHost",
      "caCert",
      "tokenReviewMode",
      "allowedNamespaces",
      "allowedNames",
      "allowedAudience",
      "gatewayId",
    ],
    credentials: ["tokenReviewerJwt"],
    // Gateway pools and TLS verification switches are features of Infisical this service lacks.
    fixed: { gatewayPoolId: null, verifyTlsCertificate: false },
    period: false,
  },
  "oidc-auth": {
    name: "oidc-auth",
    label: "OIDC auth",
    key: "oidcAuth",
    envelope: "identityOidcAuth",
    settings: [
      "oidcDiscoveryUrl",
      "caCert",
      "boundIssuer",
      "boundAudiences",
      "boundClaims",
      "claimMetadataMapping",
      "boundSubject",
    ],
    period: false,
  },
  "aws-auth": {
    name: "aws-auth",
    label: "AWS auth",
    key: "awsAuth",
    envelope: "identityAwsAuth",
    settings: ["stsEndpoint", "allowedPrincipalArns", "allowedAccountIds"],
    fixed: { type: "iam" },
    period: true,
  },
};
