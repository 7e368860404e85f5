import type { SignInOptions } from "@keyhold/contract";
import { Info, LogIn } from "lucide-react";
import { useLoaderData, useSearchParams } from "react-router";
import { BrandMark } from "@/components/ui/brand-mark";
import { buttonVariants } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { DEFAULT_AFTER_SIGN_IN } from "@/config/paths";
import { cn } from "@/lib/cn";
import { safeReturnPath } from "@/lib/safe-redirect";
import { ssoLoginHref } from "../api";
import { CredentialsForm } from "./credentials-form";

/** Said when the BFF sent the browser back from a failed single sign-on but has no reason (any more) to tell. */
const SSO_FAILED = "Single sign-on did not complete. Try again, or ask an administrator to check its set-up.";

/** The console's first screen: single sign-on, the credentials forms, or both, as the BFF offers them. */
export function SignInPage() {
  const options = useLoaderData<SignInOptions>();
  const [searchParams] = useSearchParams();
  const next = safeReturnPath(searchParams.get("next"), DEFAULT_AFTER_SIGN_IN);
  const failure = options.failure ?? (searchParams.get("sso") === "failed" ? SSO_FAILED : undefined);
  const { sso, credentials } = options;

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-surface px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <BrandMark className="size-10" />
          <h1 className="text-xl font-semibold tracking-tight">Sign in to Keyhold</h1>
          <p className="text-sm text-muted-foreground">
            {sso
              ? `Use your ${sso.providerName} account${credentials ? ", or the credentials of a machine identity" : ""}.`
              : "Use the credentials of a machine identity in your organization."}
          </p>
        </div>
        <div className="grid gap-5 rounded-xl border border-border bg-card p-6 shadow-sm">
          <FormAlert message={failure} />
          {sso ? (
            <a
              href={ssoLoginHref(sso.loginPath, next)}
              className={cn(buttonVariants({ variant: "primary" }), "w-full")}
            >
              <LogIn aria-hidden />
              Sign in with {sso.providerName}
            </a>
          ) : null}
          {sso && credentials ? (
            <div className="flex items-center gap-3 text-xs text-muted-foreground">
              <span aria-hidden className="h-px flex-1 bg-border" />
              or with a machine identity
              <span aria-hidden className="h-px flex-1 bg-border" />
            </div>
          ) : null}
          {credentials ? <CredentialsForm next={next} secondary={sso !== null} /> : null}
          {!sso && !credentials ? (
            <p role="note" className="text-sm text-muted-foreground">
              This Keyhold server offers no way to sign in. Ask its administrator to configure single sign-on.
            </p>
          ) : null}
        </div>
        {credentials ? (
          <div className="mt-4 flex gap-2 rounded-lg border border-border bg-card px-3 py-2.5 text-[13px] text-muted-foreground">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>
              Running locally? The admin token is in{" "}
              <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">
                .keyhold/admin-token
              </code>
              .
            </p>
          </div>
        ) : null}
      </div>
    </main>
  );
}
