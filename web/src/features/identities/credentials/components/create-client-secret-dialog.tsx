import { CreateClientSecretBodySchema } from "@keyhold/contract";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ShownOnce } from "@/components/ui/shown-once";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { rangeProblem, schemaLimits } from "../../auth-methods/form";
import { describeTtl, parseTtl } from "../../auth-methods/ttl";
import { useCreateClientSecret } from "../mutations";

interface CreateClientSecretDialogProps {
  identityId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const empty = { description: "", ttl: "0", uses: "0" };
/** The ranges the server enforces, read off the contract's body so the form refuses what it would. */
const limits = schemaLimits(CreateClientSecretBodySchema);

function ttlDescription(ttl: ReturnType<typeof parseTtl>, now = Date.now()): string | undefined {
  if (!ttl.ok || rangeProblem({ kind: "ttl" }, limits.ttl, ttl.seconds)) return undefined;
  if (ttl.seconds === 0) return "30d, 12h, 90m or seconds; 0: never expires";
  return `${describeTtl(ttl.seconds)}: expires ${formatDateTime(new Date(now + ttl.seconds * 1000).toISOString())}`;
}

/** Creates a universal-auth client secret and shows it once; closing the dialog forgets it. */
export function CreateClientSecretDialog({ identityId, open, onOpenChange }: CreateClientSecretDialogProps) {
  const create = useCreateClientSecret(identityId);
  const [values, setValues] = useState(empty);
  const [submitted, setSubmitted] = useState(false);
  const secret = create.data?.clientSecret;
  const ttl = parseTtl(values.ttl);
  const usesWhole = /^\d+$/.test(values.uses.trim());
  const ttlRange = ttl.ok ? rangeProblem({ kind: "ttl" }, limits.ttl, ttl.seconds) : undefined;
  const usesRange = usesWhole ? rangeProblem({ kind: "number" }, limits.numUsesLimit, Number(values.uses)) : undefined;
  // A value out of range is said as it is typed; one that does not parse, once the form is sent.
  const ttlError = ttlRange ?? (submitted && !ttl.ok ? ttl.message : undefined);
  const usesError = usesRange ?? (submitted && !usesWhole ? "Enter a whole number, 0 or more" : undefined);
  const dirty = !secret && JSON.stringify(values) !== JSON.stringify(empty);

  function handleOpenChange(next: boolean) {
    if (create.isPending) return;
    if (!next) {
      create.reset();
      setValues(empty);
      setSubmitted(false);
    }
    onOpenChange(next);
  }
  const set = (key: keyof typeof empty) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  return (
    <Dialog open={open} onOpenChange={handleOpenChange} dirty={dirty}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{secret ? "Client secret created" : "Create client secret"}</DialogTitle>
          <DialogDescription>
            {secret
              ? "Sign in with it and the identity's client ID through universal auth."
              : "A new secret this identity can sign in with through universal auth."}
          </DialogDescription>
        </DialogHeader>
        {secret ? (
          <>
            <ShownOnce value={secret} noun="client secret" />
            <DialogFooter>
              <Button variant="primary" onClick={() => handleOpenChange(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form
            noValidate
            className="grid gap-5"
            onSubmit={(event) => {
              event.preventDefault();
              setSubmitted(true);
              if (!ttl.ok || !usesWhole || ttlRange || usesRange) return;
              create.mutate({
                description: values.description.trim(),
                ttl: ttl.seconds,
                numUsesLimit: Number(values.uses),
              });
            }}
          >
            <FormAlert
              message={create.error ? errorSummary(create.error, "Could not create the client secret") : undefined}
            />
            <Field
              id="client-secret-description"
              label="Description (optional)"
              description="Where the secret is used."
            >
              <Input value={values.description} maxLength={256} autoComplete="off" onChange={set("description")} />
            </Field>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field id="client-secret-ttl" label="TTL" description={ttlDescription(ttl)} error={ttlError}>
                <Input value={values.ttl} autoComplete="off" className="font-mono text-[13px]" onChange={set("ttl")} />
              </Field>
              <Field
                id="client-secret-uses"
                label="Uses limit"
                description="Logins allowed; 0 for unlimited"
                error={usesError}
              >
                <Input
                  value={values.uses}
                  inputMode="numeric"
                  autoComplete="off"
                  className="font-mono text-[13px]"
                  onChange={set("uses")}
                />
              </Field>
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary" disabled={create.isPending}>
                  Cancel
                </Button>
              </DialogClose>
              <Button
                type="submit"
                variant="primary"
                disabled={create.isPending}
                aria-busy={create.isPending || undefined}
              >
                {create.isPending ? <Spinner /> : null}
                Create secret
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
