import {
  endpoints,
  AttachAwsAuthBodySchema,
  AttachKubernetesAuthBodySchema,
  AttachOidcAuthBodySchema,
  AttachTokenAuthBodySchema,
  AttachUniversalAuthBodySchema,
  UpdateAwsAuthBodySchema,
  UpdateKubernetesAuthBodySchema,
  UpdateOidcAuthBodySchema,
  UpdateTokenAuthBodySchema,
  UpdateUniversalAuthBodySchema,
} from "@keyhold/contract";
import {
  type AuthMethodDescriptor,
  type AuthMethodName,
  type FieldSpec,
  methodEndpoints,
  type SummarySpec,
} from "./descriptor";

/** The access-token settings every method has. */
const tokenFields: FieldSpec[] = [
  {
    name: "accessTokenTTL",
    label: "Access token TTL",
    kind: "ttl",
    expiry: true,
    atMost: "accessTokenMaxTTL",
    description: "How long an issued token lives. 0 means no expiry.",
  },
  {
    name: "accessTokenMaxTTL",
    label: "Access token max TTL",
    kind: "ttl",
    expiry: true,
    description: "The longest a token can live through renewals.",
  },
  {
    name: "accessTokenNumUsesLimit",
    label: "Uses limit",
    kind: "number",
    emptyMeans: "Unlimited",
    description: "Requests allowed per token; 0 means unlimited.",
  },
  {
    name: "accessTokenTrustedIps",
    label: "Access token trusted IPs",
    kind: "trusted-ips",
    unrestricted: "any address",
    description: "Tokens are accepted only from these addresses and ranges.",
    example: "10.0.0.0/8 or 203.0.113.7",
  },
];

const tokenSection = { title: "Access tokens", fields: tokenFields };

const tokenLifetimeSummary: SummarySpec[] = [
  { label: "Token TTL", field: "accessTokenTTL" },
  { label: "Max TTL", field: "accessTokenMaxTTL" },
  { label: "Uses limit", field: "accessTokenNumUsesLimit" },
];
const tokenUseSummary: SummarySpec = { label: "Token use accepted from", field: "accessTokenTrustedIps", mono: true };
const tokenSummary: SummarySpec[] = [...tokenLifetimeSummary, tokenUseSummary];

export const tokenAuth: AuthMethodDescriptor = {
  key: "tokenAuth",
  name: "token-auth",
  label: "Token auth",
  description: "Access tokens issued from the console or the API, with no credentials to exchange.",
  envelope: "identityTokenAuth",
  endpoints: methodEndpoints("tokenAuth"),
  attachBody: AttachTokenAuthBodySchema,
  updateBody: UpdateTokenAuthBodySchema,
  sections: [tokenSection],
  summary: tokenSummary,
};

export const universalAuth: AuthMethodDescriptor = {
  key: "universalAuth",
  name: "universal-auth",
  label: "Universal auth",
  description: "A client ID and client secrets exchanged for access tokens.",
  envelope: "identityUniversalAuth",
  endpoints: methodEndpoints("universalAuth"),
  attachBody: AttachUniversalAuthBodySchema,
  updateBody: UpdateUniversalAuthBodySchema,
  sections: [
    {
      title: "Client secrets",
      fields: [
        {
          name: "clientSecretTrustedIps",
          label: "Client secret trusted IPs",
          kind: "trusted-ips",
          unrestricted: "any address",
          description: "Client secrets can be used to sign in only from these addresses and ranges.",
          example: "10.0.0.0/8 or 203.0.113.7",
        },
        { name: "lockoutEnabled", label: "Lock out after failed sign-ins", kind: "switch" },
        {
          name: "lockoutThreshold",
          label: "Lockout threshold",
          kind: "number",
          description: "Failed sign-ins (1 to 30) before the client is locked out.",
        },
        {
          name: "lockoutDurationSeconds",
          label: "Lockout duration",
          kind: "ttl",
          description: "From 30 seconds to 1 day.",
        },
        {
          name: "lockoutCounterResetSeconds",
          label: "Failure counter reset",
          kind: "ttl",
          description: "The failure count starts over after this long (5 seconds to 1 hour).",
        },
      ],
    },
    tokenSection,
  ],
  summary: [
    { label: "Client ID", field: "clientId", mono: true, copy: true },
    // Where each step is accepted from: signing in with a client secret, then using the token it gives.
    { label: "Sign-ins accepted from", field: "clientSecretTrustedIps", mono: true },
    tokenUseSummary,
    ...tokenLifetimeSummary,
    { label: "Lockout", field: "lockoutEnabled" },
  ],
};

export const kubernetesAuth: AuthMethodDescriptor = {
  key: "kubernetesAuth",
  name: "kubernetes-auth",
  label: "Kubernetes auth",
  description: "Pods sign in with their service account token, checked with the cluster's TokenReview API.",
  envelope: "identityKubernetesAuth",
  endpoints: methodEndpoints("kubernetesAuth"),
  attachBody: AttachKubernetesAuthBodySchema,
  updateBody: UpdateKubernetesAuthBodySchema,
  sections: [
    {
      title: "Cluster",
      fields: [
        {
          name: "kubernetesHost",
          label: "Kubernetes host",
          kind: "text",
          required: true,
          example: "https://kubernetes.default.svc",
          description: "The API server that reviews service account tokens.",
        },
        {
          name: "tokenReviewerJwt",
          label: "Token reviewer JWT",
          kind: "secret",
          description: "A service account token allowed to call TokenReview. Leave empty to use the caller's token.",
        },
        {
          name: "caCert",
          label: "CA certificate",
          kind: "textarea",
          description: "PEM; needed when the API server's certificate is not publicly trusted.",
        },
      ],
    },
    {
      title: "Who may sign in",
      fields: [
        {
          name: "allowedNamespaces",
          label: "Allowed namespaces",
          kind: "text",
          unrestricted: "any namespace",
          example: "default, ci",
          description: "Comma-separated.",
        },
        {
          name: "allowedNames",
          label: "Allowed service account names",
          kind: "text",
          unrestricted: "any service account",
          example: "deployer",
          description: "Comma-separated, within the allowed namespaces.",
        },
        {
          name: "allowedAudience",
          label: "Allowed audience",
          kind: "text",
          unrestricted: "any token the API server accepts for itself",
          description: "When set, the token review asks for it and the token's audiences must include it.",
        },
      ],
    },
    tokenSection,
  ],
  summary: [
    { label: "Host", field: "kubernetesHost", mono: true },
    { label: "Reviewer JWT", field: "tokenReviewerJwt" },
    { label: "Namespaces", field: "allowedNamespaces", mono: true },
    { label: "Service accounts", field: "allowedNames", mono: true },
    { label: "Audience", field: "allowedAudience", mono: true },
    ...tokenSummary,
  ],
  tester: {
    kind: "kubernetes",
    credential: "Service account token",
    placeholder: "e.g. eyJhbGciOiJSUzI1NiIs…",
    unchecked: "not reviewed by the cluster",
    settings: ["kubernetesHost", "caCert", "tokenReviewerJwt", "allowedNamespaces", "allowedNames", "allowedAudience"],
    dryRun: { endpoint: endpoints["kubernetesAuth.dryRunLogin"] },
  },
};

export const oidcAuth: AuthMethodDescriptor = {
  key: "oidcAuth",
  name: "oidc-auth",
  label: "OIDC auth",
  description: "Workloads sign in with an ID token from an OpenID Connect provider, such as a CI system.",
  envelope: "identityOidcAuth",
  endpoints: methodEndpoints("oidcAuth"),
  attachBody: AttachOidcAuthBodySchema,
  updateBody: UpdateOidcAuthBodySchema,
  sections: [
    {
      title: "Provider",
      fields: [
        {
          name: "oidcDiscoveryUrl",
          label: "Discovery URL",
          kind: "text",
          required: true,
          example: "https://token.actions.githubusercontent.com",
          description: "Where the provider's /.well-known/openid-configuration is found.",
        },
        {
          name: "boundIssuer",
          label: "Issuer",
          kind: "text",
          required: true,
          example: "https://token.actions.githubusercontent.com",
        },
        {
          name: "caCert",
          label: "CA certificate",
          kind: "textarea",
          description: "PEM; needed when the provider's certificate is not publicly trusted.",
        },
      ],
    },
    {
      title: "Which tokens are accepted",
      fields: [
        {
          name: "boundAudiences",
          label: "Audiences",
          kind: "text",
          unrestricted: "any audience",
          description: "Comma-separated; globs allowed.",
        },
        {
          name: "boundSubject",
          label: "Subject",
          kind: "text",
          unrestricted: "any subject",
          example: "repo:acme/api:ref:refs/heads/main",
          description: "Globs allowed.",
        },
        {
          name: "boundClaims",
          label: "Required claims",
          kind: "pairs",
          unrestricted: "any claims",
          example: "repository=acme/api",
          description: "One claim=value per line; every one must match.",
        },
        {
          name: "claimMetadataMapping",
          label: "Claim metadata mapping",
          kind: "pairs",
          example: "repository=repository",
          description:
            "One name=claim per line: the claim's value is carried by the access token, into audit events. A token without the claim is refused.",
        },
      ],
    },
    tokenSection,
  ],
  summary: [
    { label: "Discovery URL", field: "oidcDiscoveryUrl", mono: true },
    { label: "Issuer", field: "boundIssuer", mono: true },
    { label: "Subject", field: "boundSubject", mono: true },
    { label: "Audiences", field: "boundAudiences", mono: true },
    { label: "Required claims", field: "boundClaims", mono: true },
    ...tokenSummary,
  ],
  tester: {
    kind: "oidc",
    credential: "JWT",
    placeholder: "e.g. eyJhbGciOiJSUzI1NiIs…",
    unchecked: "signature not checked",
    settings: [
      "oidcDiscoveryUrl",
      "caCert",
      "boundIssuer",
      "boundAudiences",
      "boundSubject",
      "boundClaims",
      "claimMetadataMapping",
    ],
    dryRun: { endpoint: endpoints["oidcAuth.dryRunLogin"] },
  },
};

export const awsAuth: AuthMethodDescriptor = {
  key: "awsAuth",
  name: "aws-auth",
  label: "AWS auth",
  description: "AWS workloads sign in with a signed STS GetCallerIdentity request for their IAM principal.",
  envelope: "identityAwsAuth",
  endpoints: methodEndpoints("awsAuth"),
  attachBody: AttachAwsAuthBodySchema,
  updateBody: UpdateAwsAuthBodySchema,
  sections: [
    {
      title: "AWS",
      fields: [
        {
          name: "stsEndpoint",
          label: "STS endpoint",
          kind: "text",
          required: true,
          description: "Where the signed GetCallerIdentity request is sent.",
        },
        {
          name: "allowedPrincipalArns",
          label: "Allowed principal ARNs",
          kind: "textarea",
          unrestricted: "any IAM principal",
          example: "arn:aws:iam::123456789012:role/deployer",
          description: "Comma-separated; globs allowed; checked together with the account IDs.",
        },
        {
          name: "allowedAccountIds",
          label: "Allowed account IDs",
          kind: "text",
          unrestricted: "any AWS account",
          example: "123456789012",
          description: "Comma-separated.",
        },
      ],
    },
    tokenSection,
  ],
  summary: [
    { label: "STS endpoint", field: "stsEndpoint", mono: true },
    { label: "Principal ARNs", field: "allowedPrincipalArns", mono: true },
    { label: "Account IDs", field: "allowedAccountIds", mono: true },
    ...tokenSummary,
  ],
  tester: {
    kind: "aws",
    credential: "aws sts get-caller-identity output or an ARN",
    placeholder: 'e.g. {"UserId": "…", "Account": "123456789012", "Arn": "arn:aws:sts::123456789012:assumed-role/…"}',
    unchecked: "not checked with STS",
    settings: ["stsEndpoint", "allowedPrincipalArns", "allowedAccountIds"],
    dryRun: {
      endpoint: endpoints["awsAuth.dryRunLogin"],
      // STS must see a signed request: the dry run takes the body a login would send.
      credential: {
        label: "Login body (JSON with iamHttpRequestMethod, iamRequestBody, iamRequestHeaders)",
        placeholder: 'e.g. {"iamHttpRequestMethod": "POST", "iamRequestBody": "…", "iamRequestHeaders": "…"}',
      },
    },
  },
};

/** Every method the console configures, in the order it lists them. */
export const authMethods: readonly AuthMethodDescriptor[] = [
  tokenAuth,
  universalAuth,
  kubernetesAuth,
  oidcAuth,
  awsAuth,
];

export const authMethodByName = Object.fromEntries(authMethods.map((m) => [m.name, m])) as Record<
  AuthMethodName,
  AuthMethodDescriptor
>;
