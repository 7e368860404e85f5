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
import { useCreateAccessToken } from "../mutations";

interface CreateTokenDialogProps {
  identityId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Issues a token-auth access token and shows it once; closing the dialog forgets it. */
export function CreateTokenDialog({ identityId, open, onOpenChange }: CreateTokenDialogProps) {
  const create = useCreateAccessToken(identityId);
  const [name, setName] = useState("");
  const token = create.data?.accessToken;
  const dirty = !token && name !== "";

  function handleOpenChange(next: boolean) {
    if (create.isPending) return;
    if (!next) {
      create.reset();
      setName("");
    }
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange} dirty={dirty}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{token ? "Access token created" : "Create access token"}</DialogTitle>
          <DialogDescription>
            {token
              ? "Use it as a Bearer token. It carries this identity's permissions."
              : "A new token-auth access token for this identity, with the method's TTL and uses limit."}
          </DialogDescription>
        </DialogHeader>
        {token ? (
          <>
            <ShownOnce value={token} noun="access token" />
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
              create.mutate(name.trim());
            }}
          >
            <FormAlert message={create.error ? errorSummary(create.error, "Could not create the token") : undefined} />
            <Field id="create-token-name" label="Name (optional)" description="Helps tell tokens apart later.">
              <Input value={name} maxLength={64} autoComplete="off" onChange={(e) => setName(e.target.value)} />
            </Field>
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
                Create token
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
