import { useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
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
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { useRenameToken } from "../mutations";

interface RenameTokenDialogProps {
  identityId: string;
  /** The token being renamed; the dialog is open while there is one. */
  token: { id: string; name: string } | undefined;
  onClose: () => void;
}

export function RenameTokenDialog({ identityId, token, onClose }: RenameTokenDialogProps) {
  const rename = useRenameToken(identityId);

  function handleOpenChange(open: boolean) {
    if (open || rename.isPending) return;
    rename.reset();
    onClose();
  }

  return (
    <Dialog open={token !== undefined} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Rename access token</DialogTitle>
          <DialogDescription>
            The name only helps tell tokens apart; the token itself does not change.
          </DialogDescription>
        </DialogHeader>
        {token ? (
          <RenameForm key={token.id} token={token} rename={rename} onDone={() => handleOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface RenameFormProps {
  token: { id: string; name: string };
  rename: ReturnType<typeof useRenameToken>;
  onDone: () => void;
}

function RenameForm({ token, rename, onDone }: RenameFormProps) {
  const [name, setName] = useState(token.name);
  const confirmDiscard = useUnsavedChanges(name !== token.name);
  return (
    <form
      noValidate
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        rename.mutate(
          { tokenId: token.id, name: name.trim() },
          {
            onSuccess: () => {
              toast.success("Token renamed");
              onDone();
            },
          },
        );
      }}
    >
      <FormAlert message={rename.error ? errorSummary(rename.error, "Could not rename the token") : undefined} />
      <Field id="rename-token-name" label="Name">
        <Input value={name} maxLength={64} autoComplete="off" onChange={(e) => setName(e.target.value)} />
      </Field>
      <DialogFooter>
        <Button variant="secondary" disabled={rename.isPending} onClick={() => confirmDiscard(onDone)}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={rename.isPending} aria-busy={rename.isPending || undefined}>
          {rename.isPending ? <Spinner /> : null}
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}
