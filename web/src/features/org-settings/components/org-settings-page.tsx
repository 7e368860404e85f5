import { ChevronRight, KeyRound, LockKeyhole } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/page-header";
import { paths } from "@/config/paths";
import { useSession } from "@/hooks/use-session";
import { RetentionSection } from "./retention-section";
import { StreamsSection } from "./streams-section";
import { VerificationSection } from "./verification-section";

/** The organisation's own role that may see and change these settings (the server checks the same). */
const ADMIN_ROLE = "admin";

/** Settings that apply to the whole organisation: how people sign in, and its audit log's. */
export function OrgSettingsPage() {
  const session = useSession();
  const isAdmin = session.identity.role === ADMIN_ROLE;
  return (
    <div className="grid gap-6">
      <PageHeader title="Organization settings" description="Settings that apply to the whole organization." />
      {isAdmin ? (
        <>
          <SignInSettings />
          <AuditLogSettings />
        </>
      ) : (
        <AdminsOnly name={session.identity.name} role={session.identity.role} />
      )}
    </div>
  );
}

function SignInSettings() {
  return (
    <section aria-labelledby="sign-in-settings" className="grid gap-4">
      <h2 id="sign-in-settings" className="text-base font-semibold tracking-tight">
        Sign-in
      </h2>
      <Link
        to={paths.ssoSetup.href()}
        className="group flex items-center gap-3 rounded-xl border border-border bg-card px-4 py-3 shadow-xs outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg border border-border bg-surface">
          <KeyRound aria-hidden className="size-4 text-muted-foreground" />
        </span>
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className="text-sm font-semibold">Single sign-on</span>
          <span className="text-[13px] text-muted-foreground">
            Let people sign in with your organization's identity provider, each named in the audit log.
          </span>
        </span>
        <ChevronRight aria-hidden className="size-4 shrink-0 text-muted-foreground group-hover:text-foreground" />
      </Link>
    </section>
  );
}

function AuditLogSettings() {
  return (
    <section aria-labelledby="audit-log-settings" className="grid gap-4">
      <div className="grid gap-0.5">
        <h2 id="audit-log-settings" className="text-base font-semibold tracking-tight">
          Audit log
        </h2>
        <p className="text-sm text-muted-foreground">
          How long events are kept, whether the record is intact, and where else it is sent.
        </p>
      </div>
      <div className="grid items-start gap-4 xl:grid-cols-2">
        <RetentionSection />
        <VerificationSection />
      </div>
      <StreamsSection />
    </section>
  );
}

function AdminsOnly({ name, role }: { name: string; role: string }) {
  return (
    <div
      role="note"
      className="flex flex-col items-center rounded-xl border border-border bg-card px-6 py-12 text-center shadow-xs"
    >
      <div className="mb-4 flex size-10 items-center justify-center rounded-lg border border-border bg-surface">
        <LockKeyhole aria-hidden className="size-5 text-muted-foreground" />
      </div>
      <h2 className="text-sm font-semibold">Only organization admins can use these settings</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">
        You are signed in as <span className="font-medium text-foreground">{name}</span>, whose organization role is{" "}
        <span className="font-medium text-foreground">{role}</span>. Audit retention, chain verification and streams
        need the admin role: ask an admin of the organization to change them, or to give you that role.
      </p>
    </div>
  );
}
