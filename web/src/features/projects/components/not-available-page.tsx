import type { LucideIcon } from "lucide-react";
import { PageHeader } from "@/components/layout/page-header";

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
        <div className="mb-4 flex size-11 items-center justify-center rounded-lg border border-border bg-card shadow-xs">
          <Icon aria-hidden className="size-5 text-muted-foreground" />
        </div>
        <h2 className="text-sm font-semibold">Not available in the console yet</h2>
        <p className="mt-1 max-w-md text-sm text-muted-foreground">
          This page is planned for a later release of the console. Until then, manage this through the Keyhold API or an
          Infisical-compatible client.
        </p>
      </div>
    </div>
  );
}
