import type { LucideIcon } from "lucide-react";
import { Construction } from "lucide-react";
import { PageHeader } from "@/components/layout/page-header";
import { Badge } from "@/components/ui/badge";

interface NotAvailablePageProps {
  title: string;
  icon: LucideIcon;
  /** What the page will do, so the empty state is still informative. */
  purpose: string;
}

/** An honest placeholder for a page that is planned but not built: no fake data, no dead controls. */
export function NotAvailablePage({ title, icon: Icon, purpose }: NotAvailablePageProps) {
  return (
    <div className="grid gap-6">
      <PageHeader title={title} description={purpose} />
      <div className="flex flex-col items-center rounded-xl border border-dashed border-border px-6 py-16 text-center">
        <div className="relative mb-4">
          <div className="flex size-11 items-center justify-center rounded-lg border border-border bg-card shadow-xs">
            <Icon aria-hidden className="size-5 text-muted-foreground" />
          </div>
          <Construction
            aria-hidden
            className="absolute -right-2 -bottom-2 size-5 rounded-full bg-background p-0.5 text-muted-foreground"
          />
        </div>
        <Badge tone="outline" className="mb-3">
          Not available yet
        </Badge>
        <h2 className="text-sm font-semibold">{title} is not available in this console yet</h2>
        <p className="mt-1 max-w-md text-sm text-muted-foreground">
          This page is planned but has not been built. Nothing here is hidden or loading: the API supports it, and the
          console will gain it in a later release.
        </p>
      </div>
    </div>
  );
}
