import { LogOut } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useSignOut } from "@/features/auth/mutations";
import { orgRoleLabel } from "@/features/identities/org-roles";
import { useSession } from "@/hooks/use-session";
import { useConfirmDiscardAll } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { AccountBadge, accountTriggerClasses } from "./account-badge";

export function UserMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const confirmDiscard = useConfirmDiscardAll();
  const { identity } = session;

  // Signing out unmounts every page at once, which no navigation guard sees: ask first.
  function handleSignOut() {
    confirmDiscard(() =>
      signOut.mutate(undefined, {
        onError: (error) =>
          toast.error("Could not sign out", errorSummary(error, "The server did not end the session")),
      }),
    );
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger aria-label={`Account: ${identity.name}`} className={accountTriggerClasses}>
        <AccountBadge name={identity.name} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-0.5 font-normal">
          <span className="truncate text-sm font-medium text-foreground">{identity.name}</span>
          <span className="text-xs text-muted-foreground">Organization role: {orgRoleLabel(identity.role)}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={handleSignOut} disabled={signOut.isPending}>
          <LogOut aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
