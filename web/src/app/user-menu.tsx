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
import { orgRoleLabel } from "@/config/org-roles";
import { useSession } from "@/hooks/use-session";
import { useConfirmDiscardAll } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { AccountBadge, accountOf, accountTriggerClasses } from "./account-badge";

export function UserMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const confirmDiscard = useConfirmDiscardAll();
  const { identity, person } = session;
  const account = accountOf(session);

  // Signing out unmounts every page at once, which no navigation guard sees: ask first.
  function handleSignOut() {
    confirmDiscard(() =>
      signOut.mutate(undefined, {
        // The provider ends its own session too, then sends the browser back to the sign-in page.
        onSuccess: (endSessionUrl) => {
          if (endSessionUrl) window.location.replace(endSessionUrl);
        },
        onError: (error) =>
          toast.error("Could not sign out", errorSummary(error, "The server did not end the session")),
      }),
    );
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger aria-label={`Account: ${account.name}`} className={accountTriggerClasses}>
        <AccountBadge {...account} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        {person ? (
          <>
            <DropdownMenuLabel className="grid gap-0.5 font-normal">
              <span className="truncate text-sm font-medium text-foreground">{account.name}</span>
              {person.name && person.name !== account.name ? (
                <span className="truncate text-xs text-muted-foreground">{person.name}</span>
              ) : null}
              <span className="text-xs text-muted-foreground">Signed in with {person.provider}</span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
          </>
        ) : null}
        <DropdownMenuLabel className="grid gap-0.5 font-normal">
          {person ? <span className="text-xs text-muted-foreground">Acting as identity</span> : null}
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
