import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";
import { useSignIn } from "../mutations";
import {
  parseSignIn,
  type SignInFieldErrors,
  type SignInMode,
  signInErrorMessage,
  signInFields,
} from "../sign-in-form";
import { SignInField } from "./sign-in-field";

const modes: { value: SignInMode; label: string }[] = [
  { value: "token", label: "Token" },
  { value: "client", label: "Universal auth" },
];
const KEEPS_IT = "Keyhold keeps the credentials on its server; this browser only receives a session cookie.";

interface CredentialsFormProps {
  /** Where to go once signed in (already checked to stay on this site). */
  next: string;
  /** Single sign-on is the page's main way in: this form's button steps back. */
  secondary: boolean;
}

/**
 * Sign-in with a machine identity's credentials. Its fields are read from the form when it is
 * submitted and checked against the contract's schema, without react-hook-form or Radix: the
 * sign-in page has a JavaScript budget (see web/tooling/route-js.ts), and a form library would be
 * a tenth of it for two inputs. Forms behind sign-in use react-hook-form as usual.
 */
export function CredentialsForm({ next, secondary }: CredentialsFormProps) {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [mode, setMode] = useState<SignInMode>("token");
  const [errors, setErrors] = useState<SignInFieldErrors>();
  const [serverError, setServerError] = useState<string>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = parseSignIn(mode, new FormData(form));
    setServerError(undefined);
    if (!parsed.success) {
      setErrors(parsed.errors);
      const first = signInFields[mode].find((name) => parsed.errors[name]);
      if (first) (form.elements.namedItem(first) as HTMLInputElement | null)?.focus();
      return;
    }
    setErrors(undefined);
    // Credentials leave the form the moment they are sent; never kept in state, storage or the URL.
    form.reset();
    signIn.mutate(parsed.data, {
      onSuccess: () => navigate(next, { replace: true }),
      onError: (error) => setServerError(signInErrorMessage(error, mode)),
      onSettled: () => signIn.reset(),
    });
  };
  // Once errors are shown, they follow the fields as they are corrected.
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    if (errors === undefined) return;
    const parsed = parseSignIn(mode, new FormData(event.currentTarget));
    setErrors(parsed.success ? undefined : parsed.errors);
  };
  const changeMode = (value: SignInMode) => {
    setMode(value);
    setErrors(undefined);
    setServerError(undefined);
  };
  const pending = signIn.isPending;

  return (
    <form noValidate onSubmit={onSubmit} onInput={onInput} className="grid gap-5" aria-label="Sign in with credentials">
      <FormAlert message={serverError} />
      <fieldset className="grid grid-cols-2 gap-1 rounded-lg bg-muted p-1" disabled={pending}>
        <legend className="sr-only">Sign in with</legend>
        {modes.map((option) => (
          <label
            key={option.value}
            className={cn(
              "relative flex h-8 cursor-pointer items-center justify-center rounded-md px-2 text-[13px] font-medium text-muted-foreground",
              "has-focus-visible:ring-2 has-focus-visible:ring-ring",
              mode === option.value && "bg-card text-foreground shadow-xs",
            )}
          >
            <input
              type="radio"
              name="mode"
              value={option.value}
              checked={mode === option.value}
              onChange={() => changeMode(option.value)}
              className="absolute inset-0 cursor-pointer appearance-none rounded-md outline-none"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {mode === "token" ? (
        <SignInField
          key="token"
          id="access-token"
          name="accessToken"
          label="Access token"
          secret="token"
          error={errors?.accessToken}
          help={KEEPS_IT}
          disabled={pending}
        />
      ) : (
        <div key="client" className="grid gap-4">
          <SignInField id="client-id" name="clientId" label="Client ID" error={errors?.clientId} disabled={pending} />
          <SignInField
            id="client-secret"
            name="clientSecret"
            label="Client secret"
            secret="secret"
            error={errors?.clientSecret}
            help={KEEPS_IT}
            disabled={pending}
          />
        </div>
      )}
      <Button
        type="submit"
        variant={secondary ? "secondary" : "primary"}
        className="w-full"
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {pending ? <Spinner /> : null}
        Sign in
      </Button>
    </form>
  );
}
