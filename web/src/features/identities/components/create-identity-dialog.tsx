import { Plus } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { useCreateIdentity } from "../mutations";

/**
 * The form (react-hook-form, Radix Select and Switch) is loaded when the dialog is about to
 * open, not with the identities list; pointing at or focusing the button starts the download.
 */
const loadForm = () => import("./create-identity-form");
const CreateIdentityForm = lazy(async () => ({ default: (await loadForm()).CreateIdentityForm }));

interface CreateIdentityDialogProps {
  triggerVariant?: "primary" | "secondary";
}

export function CreateIdentityDialog({ triggerVariant = "primary" }: CreateIdentityDialogProps) {
  const [open, setOpen] = useState(false);
  const createIdentity = useCreateIdentity();

  function handleOpenChange(next: boolean) {
    if (createIdentity.isPending) return;
    setOpen(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        {/* A failed early download is not lost: the dialog imports the form again and shows the error. */}
        <Button
          variant={triggerVariant}
          size="sm"
          onPointerEnter={() => void loadForm()}
          onFocus={() => void loadForm()}
        >
          <Plus aria-hidden />
          Create identity
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create identity</DialogTitle>
          <DialogDescription>
            A machine identity lets software authenticate to Keyhold. Add an auth method after creating it.
          </DialogDescription>
        </DialogHeader>
        <Suspense
          fallback={
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner />
              Loading the form…
            </p>
          }
        >
          <CreateIdentityForm
            createIdentity={createIdentity}
            onCancel={() => handleOpenChange(false)}
            onCreated={() => setOpen(false)}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
