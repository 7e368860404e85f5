import * as DialogPrimitive from "@radix-ui/react-dialog";
import * as Tabs from "@radix-ui/react-tabs";
import { X } from "lucide-react";
import { useState } from "react";
import { ActivityLink } from "@/components/audit/activity-link";
import { Dialog, overlayClasses } from "@/components/ui/dialog";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { SecretDetails } from "./secret-details";
import { VersionHistory } from "./version-history";

export interface SecretDrawerProps {
  projectId: string;
  /** Environment slug, as on the wire. */
  environment: string;
  /** Folder path of the secret, "/" or "/a/b" (no trailing slash). */
  secretPath: string;
  /** The secret's key; undefined while nothing is open. */
  secretKey: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a rename succeeded, with the new key (the drawer follows it by itself). */
  onRenamed?: (newKey: string) => void;
}

const tabClasses = cn(
  "-mb-px inline-flex h-9 items-center border-b-2 border-transparent px-1 text-sm font-medium text-muted-foreground",
  "outline-none transition-colors hover:text-foreground focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring",
  "data-[state=active]:border-accent data-[state=active]:text-foreground",
);

/**
 * One secret in a panel at the side of the secrets page: its details to edit, and its version
 * history with diffs and restore. A modal dialog underneath (focus stays inside, Escape closes);
 * closing with unsaved changes asks first.
 */
export function SecretDrawer({
  projectId,
  environment,
  secretPath,
  secretKey,
  open,
  onOpenChange,
  onRenamed,
}: SecretDrawerProps) {
  const [dirty, setDirty] = useState(false);
  const shown = open && secretKey !== undefined;

  // The form tells the dialog of its unsaved input itself (useUnsavedChanges) as it renders;
  // `dirty`, a render later, only informs the version history.
  return (
    <Dialog
      open={shown}
      onOpenChange={onOpenChange}
      discardDescription={`Your changes to ${secretKey} have not been saved. Closing discards them.`}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            "fixed inset-y-0 right-0 z-50 flex w-full max-w-2xl flex-col border-l border-border bg-card text-foreground shadow-2xl",
            "outline-none data-[state=open]:animate-fade-in",
          )}
        >
          {secretKey === undefined ? null : (
            <DrawerBody
              // Another secret (or place) starts afresh.
              key={`${environment}\u0000${secretPath}\u0000${secretKey}`}
              folder={{ projectId, environment, secretPath }}
              initialKey={secretKey}
              dirty={dirty}
              onDirtyChange={setDirty}
              onRenamed={onRenamed}
            />
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </Dialog>
  );
}

interface DrawerBodyProps {
  folder: SecretFolder;
  initialKey: string;
  dirty: boolean;
  onDirtyChange: (dirty: boolean) => void;
  onRenamed: ((newKey: string) => void) | undefined;
}

function DrawerBody({ folder, initialKey, dirty, onDirtyChange, onRenamed }: DrawerBodyProps) {
  // A rename moves the secret: the drawer keeps reading it under its new name.
  const [secretKey, setSecretKey] = useState(initialKey);
  const [tab, setTab] = useState("details");

  return (
    <Tabs.Root value={tab} onValueChange={setTab} className="flex min-h-0 flex-1 flex-col">
      <header className="grid gap-3 border-b border-border px-6 pt-5">
        <div className="flex items-start justify-between gap-4">
          <div className="grid min-w-0 gap-1">
            <DialogPrimitive.Title className="truncate font-mono text-base font-semibold tracking-tight">
              {secretKey}
            </DialogPrimitive.Title>
            <p className="text-[13px] text-muted-foreground">
              <span className="sr-only">Environment </span>
              <span className="font-mono">{folder.environment}</span>
              <span aria-hidden> · </span>
              <span className="sr-only">, folder </span>
              <span className="font-mono">{folder.secretPath}</span>
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <ActivityLink
              variant="ghost"
              label={`View activity of ${secretKey}`}
              of={{
                projectId: folder.projectId,
                environment: folder.environment,
                secretPath: folder.secretPath,
                secretKey,
              }}
            >
              Activity
            </ActivityLink>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-muted-foreground transition-colors outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Close"
            >
              <X aria-hidden className="size-4" />
            </DialogPrimitive.Close>
          </div>
        </div>
        <Tabs.List aria-label="Secret views" className="flex gap-4">
          <Tabs.Trigger value="details" className={tabClasses}>
            Details
          </Tabs.Trigger>
          <Tabs.Trigger value="versions" className={tabClasses}>
            Version history
          </Tabs.Trigger>
        </Tabs.List>
      </header>
      {/* forceMount keeps a draft in the details while the history is looked at. */}
      <Tabs.Content
        value="details"
        forceMount
        className="min-h-0 flex-1 scroll-pb-28 overflow-y-auto outline-none data-[state=inactive]:hidden"
      >
        <SecretDetails
          folder={folder}
          secretKey={secretKey}
          onDirtyChange={onDirtyChange}
          onRenamed={(newKey) => {
            setSecretKey(newKey);
            onRenamed?.(newKey);
          }}
        />
      </Tabs.Content>
      <Tabs.Content value="versions" className="min-h-0 flex-1 overflow-y-auto outline-none">
        <VersionHistory folder={folder} secretKey={secretKey} unsavedChanges={dirty} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
