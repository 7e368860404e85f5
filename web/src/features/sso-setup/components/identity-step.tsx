import type { OidcSetup } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { type Control, Controller, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { InlineError } from "@/components/layout/settings-section";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { ORG_ROLES } from "@/config/org-roles";
import { paths } from "@/config/paths";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/cn";
import { PICKER_LIMIT } from "../api";
import {
  type IdentityStepInput,
  IdentityStepSchema,
  type IdentityStepValues,
  toIdentityStepValues,
} from "../identity-form";
import { AttachAfterCreateError, type ConnectedIdentity, useConnectIdentity } from "../mutations";
import { ssoIdentityQueries } from "../identity-queries";
import { Step } from "./setup-parts";

interface IdentityStepProps {
  setup: OidcSetup;
  orgId: string;
  connected: ConnectedIdentity | undefined;
  onConnected: (identity: ConnectedIdentity | undefined) => void;
}

/** Step 3: the identity people sign in as, with OIDC auth that trusts this provider and client. */
export function IdentityStep({ setup, orgId, connected, onConnected }: IdentityStepProps) {
  return (
    <Step
      n={3}
      id="sso-identity"
      title="Choose the identity people sign in as"
      description={
        <>
          Its OIDC auth trusts this provider and client, and decides who may sign in: the service checks it on every
          sign-in. Its organization role is what they may do.
        </>
      }
      done={connected !== undefined}
    >
      {connected ? (
        <div role="status" className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          <CircleCheck aria-hidden className="size-4 shrink-0 text-success" />
          <p className="min-w-0 flex-1">
            <Link to={paths.identity.href(connected.id)} className="font-medium text-accent-text hover:underline">
              {connected.name}
            </Link>{" "}
            {connected.updated ? "had its OIDC auth updated" : "has OIDC auth"} for{" "}
            {setup.providerName ?? "the provider"}.
          </p>
          <Button size="sm" variant="secondary" onClick={() => onConnected(undefined)}>
            Change
          </Button>
        </div>
      ) : (
        <IdentityForm setup={setup} orgId={orgId} onConnected={onConnected} />
      )}
    </Step>
  );
}

function IdentityForm({ setup, orgId, onConnected }: Omit<IdentityStepProps, "connected">) {
  const connect = useConnectIdentity(orgId);
  const form = useForm<IdentityStepInput, unknown, IdentityStepValues>({
    resolver: zodResolver(IdentityStepSchema),
    defaultValues: toIdentityStepValues(setup.identityId),
  });
  const { register, control, formState } = form;
  // The union's branches share no error type: read each field's message by name.
  const errors = formState.errors as Partial<Record<string, { message?: string }>> & typeof formState.errors;
  useUnsavedChanges(formState.isDirty);
  const source = useWatch({ control, name: "source" });

  const onSubmit = form.handleSubmit((step) =>
    connect.mutateAsync({ setup, step }).then(
      (connected) => {
        toast.success(connected.updated ? "OIDC auth updated" : "OIDC auth attached", connected.name);
        form.reset(form.getValues());
        onConnected(connected);
      },
      (error: unknown) => {
        if (error instanceof AttachAfterCreateError) {
          // The identity exists now: a retry must attach to it, not create another.
          form.reset({
            ...toIdentityStepValues(error.identity.id),
            claim: form.getValues("claim"),
            values: form.getValues("values"),
          });
          form.setError("root.server", {
            type: "server",
            message: `${error.message}: ${errorSummary(error.cause, "the service refused it")}. It is picked below; try again.`,
          });
          return;
        }
        showSubmitError(
          form,
          error,
          ["name", "role", "identityId", "claim", "values"],
          "Could not set up the identity",
        );
      },
    ),
  );
  const pending = connect.isPending;

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Identity for single sign-on">
      <FormAlert message={formState.errors.root?.server?.message} />
      <fieldset className="grid gap-2" disabled={pending}>
        <legend className="mb-2 text-[13px] font-medium">Identity to use</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {(
            [
              ["create", "Create a new identity"],
              ["existing", "Use an existing identity"],
            ] as const
          ).map(([value, label]) => (
            <label
              key={value}
              className={cn(
                "flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2 text-sm",
                "has-checked:border-accent has-checked:bg-accent-subtle/40 has-focus-visible:ring-2 has-focus-visible:ring-ring",
              )}
            >
              <input type="radio" value={value} className="accent-(--accent)" {...register("source")} />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {source === "create" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="sso-identity-name" label="Name" error={errors.name?.message}>
            <Input autoComplete="off" spellCheck={false} disabled={pending} {...register("name")} />
          </Field>
          <Field
            id="sso-identity-role"
            label="Organization role"
            error={errors.role?.message}
            description="What everyone who signs in may do."
          >
            <Select disabled={pending} {...register("role")}>
              {ORG_ROLES.map((role) => (
                <option key={role.slug} value={role.slug}>
                  {role.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      ) : (
        <IdentityPicker orgId={orgId} error={errors.identityId?.message} disabled={pending} control={control} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="sso-bound-claim"
          label="Bound claim (optional)"
          error={errors.claim?.message}
          description="A single-valued claim of the ID token, such as email. Infisical servers cannot bind a list claim such as groups: use sign-in rules for those."
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            placeholder="email"
            className="font-mono text-[13px]"
            disabled={pending}
            {...register("claim")}
          />
        </Field>
        <Field
          id="sso-bound-values"
          label="Allowed values"
          error={errors.values?.message}
          description="Comma-separated; * matches any text. Leave both empty to admit everyone the provider signs in."
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            placeholder="*@example.com"
            className="font-mono text-[13px]"
            disabled={pending}
            {...register("values")}
          />
        </Field>
      </div>
      <p className="text-[13px] text-muted-foreground">
        The OIDC auth is bound to the issuer <code className="font-mono text-xs">{setup.issuer}</code> and the audience{" "}
        <code className="font-mono text-xs">{setup.clientId}</code>, maps the{" "}
        <code className="font-mono text-xs">email</code> and <code className="font-mono text-xs">name</code> claims into
        each token, and issues tokens for an hour, so a person removed at the provider loses access within the hour.
      </p>
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={pending} aria-busy={pending || undefined}>
          {pending ? <Spinner /> : null}
          {source === "create" ? "Create identity with OIDC auth" : "Set up OIDC auth"}
        </Button>
      </div>
    </form>
  );
}

interface PickerProps {
  orgId: string;
  error: string | undefined;
  disabled: boolean;
  control: Control<IdentityStepInput, unknown, IdentityStepValues>;
}

/** Controlled: the identity chosen before the list arrives (the one configured) stays chosen. */
function IdentityPicker({ orgId, error, disabled, control }: PickerProps) {
  const query = useQuery(ssoIdentityQueries.identities(orgId));
  if (query.isError) {
    return (
      <InlineError onRetry={() => void query.refetch()}>
        {errorSummary(query.error, "Could not load the organization's identities")}
      </InlineError>
    );
  }
  const identities = query.data?.identities ?? [];
  const more = (query.data?.total ?? 0) > PICKER_LIMIT;
  const none = query.data !== undefined && identities.length === 0;
  return (
    <Controller
      control={control}
      name="identityId"
      render={({ field }) => (
        <Field
          id="sso-identity-pick"
          label="Identity"
          error={error ?? (none ? "The organization has no identities yet: create one." : undefined)}
          description={
            more
              ? `The first ${PICKER_LIMIT} identities by name.`
              : "An identity that has OIDC auth already has it updated for this provider."
          }
        >
          <Select
            disabled={disabled || query.isPending}
            aria-busy={query.isPending || undefined}
            name={field.name}
            ref={field.ref}
            value={field.value ?? ""}
            onChange={field.onChange}
            onBlur={field.onBlur}
          >
            <option value="">{query.isPending ? "Loading identities…" : "Pick an identity"}</option>
            {identities.map((identity) => (
              <option key={identity.id} value={identity.id}>
                {identity.name} ({identity.role}){identity.authMethods.includes("oidc-auth") ? " · has OIDC auth" : ""}
              </option>
            ))}
          </Select>
        </Field>
      )}
    />
  );
}
