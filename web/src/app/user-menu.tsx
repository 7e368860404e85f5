import { ChevronsUpDown, LogOut } from "lucide-react";
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
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";

function initials(name: string): string {
  const parts = name.split(/[\s_-]+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]?.[0]}${parts[1]?.[0]}` : name.slice(0, 2)).toUpperCase();
}

export function UserMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const { identity } = session;

  function handleSignOut() {
    signOut.mutate(undefined, {
      onError: (error) => toast.error("Could not sign out", errorSummary(error, "The server did not end the session")),
    });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={`Account: ${identity.name}`}
        className="flex h-8 items-center gap-2 rounded-md pr-1.5 pl-1 text-sm outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-hover"
      >
        <span
          aria-hidden
          className="flex size-6 items-center justify-center rounded-full bg-accent-subtle text-[11px] font-semibold text-accent-subtle-foreground"
        >
          {initials(identity.name)}
        </span>
        <span className="max-w-40 truncate font-medium">{identity.name}</span>
        <ChevronsUpDown aria-hidden className="size-3.5 text-muted-foreground" />
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
