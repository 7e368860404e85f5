import type { OidcSetup } from "@keyhold/contract";
import { CircleAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { ConfigLines, CopyRow, Step } from "./setup-parts";

/** The claims the identity's OIDC auth and the console read from the ID token. */
/** What the BFF asks for unless KEYHOLD_OIDC_SCOPES says otherwise (shown before it has a provider). */
const DEFAULT_SCOPES = ["openid", "email", "profile", "offline_access"];

const CLAIMS = [
  { name: "email", why: "names the person in the header and in audit events" },
  { name: "name", why: "shown beside the e-mail" },
  { name: "groups", why: "optional: lets sign-in rules pick an identity per group" },
];

/** Step 1: what to register at the provider, for any provider. */
export function RegisterStep({ setup }: { setup: OidcSetup }) {
  return (
    <Step
      n={1}
      id="sso-register"
      title="Register Keyhold at your identity provider"
      description="Create an OpenID Connect application (a confidential web client using the authorization code flow) with these values."
    >
      <dl className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-2">
        <CopyRow
          label="Redirect URI"
          value={setup.callbackUrl}
          hint="Also called the callback or sign-in redirect URL."
        />
        <CopyRow
          label="Post-logout redirect URI"
          value={setup.postLogoutRedirectUrl}
          hint="Where the provider returns people after signing them out."
        />
      </dl>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-2 text-[13px]">
        <div className="flex flex-wrap items-center gap-1">
          <span className="mr-1 font-medium">Scopes:</span>
          {(setup.scopes.length > 0 ? setup.scopes : DEFAULT_SCOPES).map((scope) => (
            <code key={scope} className="rounded bg-muted px-1 py-0.5 font-mono text-xs">
              {scope}
            </code>
          ))}
          <span className="text-muted-foreground">
            (offline_access gives the refresh token that keeps sessions alive)
          </span>
        </div>
        <div>
          <p className="font-medium">Claims in the ID token:</p>
          <ul className="mt-1 grid gap-1 text-muted-foreground">
            {CLAIMS.map((claim) => (
              <li key={claim.name}>
                <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">{claim.name}</code>{" "}
                {claim.why}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </Step>
  );
}

const CLIENT_AUTH_LABELS = { client_secret_basic: "Client secret", private_key_jwt: "Private key JWT" } as const;

/** Step 2: the BFF's own configuration: what to set when it is off, what it has when it is on. */
export function ConfigureStep({ setup }: { setup: OidcSetup }) {
  if (setup.mode === "off") {
    return (
      <Step
        n={2}
        id="sso-configure"
        title="Give Keyhold the provider's details"
        description="Single sign-on is off: this Keyhold server has no provider. Set these in its environment, with your provider's values, and restart it."
      >
        <ConfigLines
          label="Provider configuration"
          lines={[
            "KEYHOLD_OIDC_ISSUER=https://id.example.com",
            "KEYHOLD_OIDC_CLIENT_ID=keyhold",
            "KEYHOLD_OIDC_CLIENT_SECRET_FILE=/run/secrets/keyhold-oidc-client-secret",
            "KEYHOLD_OIDC_PROVIDER_NAME=Example ID",
          ]}
        />
        <p className="text-[13px] text-muted-foreground">
          The issuer is the address whose <code className="font-mono text-xs">/.well-known/openid-configuration</code>{" "}
          describes the provider. Without an identity yet, only test sign-ins from this page run.
        </p>
      </Step>
    );
  }
  return (
    <Step
      n={2}
      id="sso-configure"
      title="Keyhold's connection to the provider"
      description="As this Keyhold server was configured. Change it in its environment."
      done={!setup.problem}
    >
      {setup.problem ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
        >
          <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <p>{setup.problem}</p>
        </div>
      ) : null}
      <dl className="grid gap-x-6 gap-y-3 text-[13px] sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="text-muted-foreground">Provider</dt>
        <dd className="font-medium">{setup.providerName ?? "—"}</dd>
        <dt className="text-muted-foreground">Issuer</dt>
        <dd className="font-mono break-all">{setup.issuer ?? "—"}</dd>
        <dt className="text-muted-foreground">Client ID</dt>
        <dd className="font-mono break-all">{setup.clientId ?? "—"}</dd>
        <dt className="text-muted-foreground">Client authentication</dt>
        <dd>{setup.clientAuth ? CLIENT_AUTH_LABELS[setup.clientAuth] : "—"}</dd>
        <dt className="text-muted-foreground">Credentials sign-in</dt>
        <dd>
          {setup.credentials ? (
            <Badge tone="neutral">Offered beside single sign-on</Badge>
          ) : (
            <Badge tone="outline">Switched off</Badge>
          )}
        </dd>
      </dl>
    </Step>
  );
}
