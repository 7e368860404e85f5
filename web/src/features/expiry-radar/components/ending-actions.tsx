import { CalendarPlus, Ban } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { paths } from "@/config/paths";
import { useSession } from "@/hooks/use-session";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { Ending } from "../endings";
import { useRevokeClientSecret, useRevokeToken } from "../mutations";
import { ExtendDialog } from "./extend-dialog";

/** The row's action in place: extend a grant, revoke a credential, or where to change a user's role. */
export function EndingActions({ ending }: { ending: Ending }) {
  const { action } = ending;
  switch (action.type) {
    case "extend-privilege":
    case "extend-identity-role":
      return <ExtendButton ending={ending} />;
    case "revoke-token":
    case "revoke-client-secret":
      return <RevokeButton ending={ending} />;
    case "none":
      return ending.project ? (
        <Link
          className={buttonVariants({ variant: "link", size: "sm" })}
          to={paths.project.access.href(ending.project.id)}
        >
          Change on the Access page
        </Link>
      ) : null;
  }
}

function ExtendButton({ ending }: { ending: Ending }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Extend ${ending.name} of ${ending.holder.name}`}>
        <CalendarPlus aria-hidden />
        Extend
      </Button>
      {open ? <ExtendDialog ending={ending} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}

function RevokeButton({ ending }: { ending: Ending }) {
  const [open, setOpen] = useState(false);
  const revokeToken = useRevokeToken();
  const revokeSecret = useRevokeClientSecret();
  const mutation = ending.action.type === "revoke-token" ? revokeToken : revokeSecret;
  const what = ending.kind === "token" ? "access token" : "client secret";
  // The console may be signed in with one of its own identity's tokens: revoking that one signs out.
  const session = useSession();
  const own = ending.kind === "token" && ending.holder.id === session.identity.id;

  function confirm() {
    const done = {
      onSuccess: () => {
        toast.success(`The ${what} is revoked`, ending.name);
        setOpen(false);
      },
    };
    const { action } = ending;
    if (action.type === "revoke-token") revokeToken.mutate(action, done);
    else if (action.type === "revoke-client-secret") revokeSecret.mutate(action, done);
  }

  return (
    <>
      <Button
        size="sm"
        variant="destructive-outline"
        onClick={() => {
          mutation.reset();
          setOpen(true);
        }}
        aria-label={`Revoke ${ending.name} of ${ending.holder.name}`}
      >
        <Ban aria-hidden />
        Revoke
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Revoke this ${what}?`}
        description={
          <>
            <span className="font-mono text-foreground">{ending.name}</span> of {ending.holder.name} stops working at
            once{ending.kind === "token" ? "" : ": logins with it are refused"}. This cannot be undone.
            {own ? " If this console is signed in with this token, you will be signed out." : null}
          </>
        }
        confirmLabel="Revoke"
        onConfirm={confirm}
        pending={mutation.isPending}
        error={mutation.error ? errorSummary(mutation.error, `Could not revoke the ${what}`) : undefined}
      />
    </>
  );
}
