import { bffPaths, type OidcSetup } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { InlineError } from "@/components/layout/settings-section";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { errorSummary } from "@/lib/describe-error";
import { ssoSetupQueries } from "../queries";
import { ConfigLines, Step } from "./setup-parts";
import { TestOutcome } from "./test-outcome";

export interface CandidateIdentity {
  id: string;
  name?: string | undefined;
}

/** Where the test window starts: the BFF's login route, told which identity to test. */
export function testSignInHref(identityId: string): string {
  return `${bffPaths.oidcLogin}?${new URLSearchParams({ test: identityId })}`;
}

/** Step 4: a sign-in through the provider in a new window, as the identity, without switching anything on. */
export function TestStep({ identity }: { identity: CandidateIdentity | undefined }) {
  // The outcome shown before the test started (its time): read again until a newer one arrives.
  const [waitingAfter, setWaitingAfter] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const query = useQuery(ssoSetupQueries.testResult(waiting));
  const result = query.data;
  const arrived = result !== undefined && result.status !== "pending" && (result.at ?? "") !== waitingAfter;
  if (waiting && arrived) setWaiting(false);

  function start() {
    if (!identity) return;
    setWaitingAfter(result?.at ?? "");
    setWaiting(true);
    // Its own window, which keeps no handle on this one: the provider's pages cannot reach the console.
    window.open(testSignInHref(identity.id), "_blank", "noopener,popup,width=520,height=720");
  }

  return (
    <Step
      n={4}
      id="sso-test"
      title="Test a sign-in"
      description="Sign in at the provider in a new window, as anyone who should get in (or should not). Nothing is switched on for anyone: the test only reports what would happen."
      done={result?.status === "passed"}
    >
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={start} disabled={!identity}>
          <ExternalLink aria-hidden />
          Test sign-in
        </Button>
        {identity ? (
          <p className="text-[13px] text-muted-foreground">
            As the identity <span className="font-medium text-foreground">{identity.name ?? identity.id}</span>
          </p>
        ) : (
          <p className="text-[13px] text-muted-foreground">Choose the identity first (step 3).</p>
        )}
      </div>
      {query.isError ? (
        <InlineError onRetry={() => void query.refetch()}>
          {errorSummary(query.error, "Could not read the last test sign-in")}
        </InlineError>
      ) : result === undefined ? (
        <Skeleton className="h-12 w-full" />
      ) : (
        <TestOutcome result={waiting && result.status !== "pending" ? { status: "pending" } : result} />
      )}
    </Step>
  );
}

/** Step 5: the exact configuration that lets everyone sign in as the identity. */
export function SwitchOnStep({ setup, identity }: { setup: OidcSetup; identity: CandidateIdentity | undefined }) {
  const isOn = setup.mode === "on" && (setup.identityId === identity?.id || identity === undefined);
  const rule = {
    name: "platform",
    claim: "groups",
    values: "platform",
    identityId: identity?.id ?? "<identity id>",
  };
  return (
    <Step
      n={5}
      id="sso-switch-on"
      title="Switch it on for everyone"
      description="Add these lines to the Keyhold server's environment, beside the provider's, and restart it. The sign-in page then offers the provider."
      done={isOn}
    >
      {isOn ? (
        <p role="status" className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone="success">On</Badge>
          Everyone signs in with {setup.providerName ?? "the provider"}
          {setup.rules.length > 0 ? `, by ${setup.rules.length} rule${setup.rules.length === 1 ? "" : "s"}` : ""}.
        </p>
      ) : null}
      {identity ? (
        <>
          <ConfigLines label="Identity configuration" lines={[`KEYHOLD_OIDC_IDENTITY_ID=${identity.id}`]} />
          <details className="text-[13px]">
            <summary className="cursor-pointer font-medium">Different identities for different groups</summary>
            <div className="mt-2 grid gap-2 text-muted-foreground">
              <p>
                Rules map a claim to an identity; the first that matches wins, and anyone else is refused (or signs in
                as <code className="font-mono text-xs">KEYHOLD_OIDC_IDENTITY_ID</code> when it is set too).
              </p>
              <ConfigLines
                label="Rules configuration"
                lines={[`KEYHOLD_OIDC_IDENTITY_RULES=${JSON.stringify([rule])}`]}
              />
            </div>
          </details>
          <p className="text-[13px] text-muted-foreground">
            Once people sign in this way, <code className="font-mono text-xs">KEYHOLD_CREDENTIAL_SIGN_IN=false</code>{" "}
            takes the access-token and client-secret forms off the sign-in page.
          </p>
        </>
      ) : (
        <p className="text-[13px] text-muted-foreground">Choose the identity first (step 3).</p>
      )}
    </Step>
  );
}
