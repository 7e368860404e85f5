/** The built-in organisation roles, in the order a person would pick them. */
export const ORG_ROLES = [
  { slug: "admin", label: "Admin", description: "Full access to the organization and its settings." },
  { slug: "member", label: "Member", description: "Reads and works with the organization's resources." },
  { slug: "no-access", label: "No access", description: "Can sign in, but sees nothing until granted access." },
] as const;

export function orgRoleLabel(slug: string): string {
  return ORG_ROLES.find((role) => role.slug === slug)?.label ?? slug;
}

/** Names of identity auth methods as the API spells them. */
const AUTH_METHOD_LABELS: Record<string, string> = {
  "token-auth": "Token",
  "universal-auth": "Universal",
  "kubernetes-auth": "Kubernetes",
  "oidc-auth": "OIDC",
  "aws-auth": "AWS IAM",
  "gcp-auth": "GCP",
  "azure-auth": "Azure",
  "jwt-auth": "JWT",
  "ldap-auth": "LDAP",
};

export function authMethodLabel(method: string): string {
  return AUTH_METHOD_LABELS[method] ?? method;
}
