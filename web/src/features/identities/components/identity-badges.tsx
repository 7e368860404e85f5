import { ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { authMethodLabel, orgRoleLabel } from "@/config/org-roles";

export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge tone={role === "admin" ? "accent" : role === "no-access" ? "outline" : "neutral"}>
      {orgRoleLabel(role)}
    </Badge>
  );
}

export function AuthMethodBadges({ methods }: { methods: readonly string[] }) {
  if (methods.length === 0) return <span className="text-[13px] text-muted-foreground">None</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {methods.map((method) => (
        <Badge key={method} tone="outline" className="text-foreground">
          {authMethodLabel(method)}
        </Badge>
      ))}
    </span>
  );
}

export function DeleteProtectionBadge({ on }: { on: boolean }) {
  if (!on) return <span className="text-[13px] text-muted-foreground">Off</span>;
  return (
    <Badge tone="success">
      <ShieldCheck aria-hidden />
      Protected
    </Badge>
  );
}
