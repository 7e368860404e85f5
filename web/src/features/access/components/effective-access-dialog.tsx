import { lazy, Suspense } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";

// The permission engine loads when the view is opened, not with the access page.
const EffectiveAccess = lazy(() => import("./effective-access"));

interface EffectiveAccessDialogProps {
  projectId: string;
  identity: { id: string; name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** What an identity may do with secrets in the project, per environment and folder, and which rule says so. */
export function EffectiveAccessDialog({ projectId, identity, open, onOpenChange }: EffectiveAccessDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-4xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Effective access of {identity.name}</DialogTitle>
          <DialogDescription>
            What it may do with secrets here now, from its roles and privileges together, and the rule that decides each
            answer.
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <Suspense
            fallback={
              <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
                <Spinner />
                Loading…
              </p>
            }
          >
            <EffectiveAccess projectId={projectId} identityId={identity.id} />
          </Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
