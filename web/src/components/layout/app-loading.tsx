import { BrandMark } from "@/components/ui/brand-mark";
import { Spinner } from "@/components/ui/spinner";

/** Shown while the first route's data loads (the router's HydrateFallback). */
export function AppLoading() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background">
      <BrandMark className="size-9" />
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        Loading Keyhold…
      </p>
    </main>
  );
}
