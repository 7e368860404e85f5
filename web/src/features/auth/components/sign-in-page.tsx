import { Eye, EyeOff, Info } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { BrandMark } from "@/components/ui/brand-mark";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { DEFAULT_AFTER_SIGN_IN } from "@/config/paths";
import { safeReturnPath } from "@/lib/safe-redirect";
import { useSignIn } from "../mutations";
import { accessTokenError, SignInFormSchema, signInErrorMessage } from "../sign-in-form";

/**
 * The console's first screen. Its one field is read from the form when it is submitted
 * and checked against the contract's schema, without react-hook-form: the sign-in page
 * has a JavaScript budget (see web/tooling/route-js.ts), and a form library would be a
 * tenth of it for a single input. Forms behind sign-in use react-hook-form as usual.
 */
export function SignInPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [revealed, setRevealed] = useState(false);
  const [tokenError, setTokenError] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const next = safeReturnPath(searchParams.get("next"), DEFAULT_AFTER_SIGN_IN);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = SignInFormSchema.safeParse({ accessToken: new FormData(form).get("accessToken") ?? "" });
    setServerError(undefined);
    if (!parsed.success) {
      setTokenError(accessTokenError(parsed.error));
      (form.elements.namedItem("accessToken") as HTMLInputElement | null)?.focus();
      return;
    }
    setTokenError(undefined);
    // The token leaves the form the moment it is sent; it is never kept in state, storage or the URL.
    form.reset();
    setRevealed(false);
    signIn.mutate(parsed.data, {
      onSuccess: () => navigate(next, { replace: true }),
      onError: (error) => setServerError(signInErrorMessage(error)),
      onSettled: () => signIn.reset(),
    });
  };
  // Once an error is shown, it follows the field as it is corrected.
  const onTokenChange = (value: string) => {
    if (tokenError === undefined) return;
    const parsed = SignInFormSchema.safeParse({ accessToken: value });
    setTokenError(parsed.success ? undefined : accessTokenError(parsed.error));
  };
  const pending = signIn.isPending;

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-surface px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <BrandMark className="size-10" />
          <h1 className="text-xl font-semibold tracking-tight">Sign in to Keyhold</h1>
          <p className="text-sm text-muted-foreground">
            Use an access token of a machine identity in your organization.
          </p>
        </div>
        <form
          noValidate
          onSubmit={onSubmit}
          className="grid gap-5 rounded-xl border border-border bg-card p-6 shadow-sm"
        >
          <div className="grid gap-2">
            <Label htmlFor="access-token">Access token</Label>
            <div className="relative">
              <Input
                id="access-token"
                type={revealed ? "text" : "password"}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                className="pr-10 font-mono text-[13px]"
                disabled={pending}
                aria-invalid={tokenError ? true : undefined}
                aria-describedby={tokenError ? "access-token-error access-token-help" : "access-token-help"}
                name="accessToken"
                onChange={(event) => onTokenChange(event.target.value)}
              />
              <button
                type="button"
                onClick={() => setRevealed((value) => !value)}
                aria-label={revealed ? "Hide token" : "Show token"}
                aria-pressed={revealed}
                aria-controls="access-token"
                className="absolute top-1/2 right-1 flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              >
                {revealed ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
              </button>
            </div>
            {tokenError ? (
              <p id="access-token-error" className="text-[13px] text-destructive-subtle-foreground">
                {tokenError}
              </p>
            ) : null}
            <p id="access-token-help" className="text-[13px] text-muted-foreground">
              Keyhold keeps the token on its server; this browser only receives a session cookie.
            </p>
          </div>
          <FormAlert message={serverError} />
          <Button
            type="submit"
            variant="primary"
            className="w-full"
            disabled={pending}
            aria-busy={pending || undefined}
          >
            {pending ? <Spinner /> : null}
            Sign in
          </Button>
        </form>
        <div className="mt-4 flex gap-2 rounded-lg border border-border bg-card px-3 py-2.5 text-[13px] text-muted-foreground">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          <p>
            Running locally? The admin token is in{" "}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">.keyhold/admin-token</code>
            .
          </p>
        </div>
      </div>
    </main>
  );
}
