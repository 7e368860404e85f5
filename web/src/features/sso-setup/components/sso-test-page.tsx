import { useQuery } from "@tanstack/react-query";
import { BrandMark } from "@/components/ui/brand-mark";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorPanel } from "@/components/errors/error-panel";
import { ssoSetupQueries } from "../queries";
import { TestOutcome } from "./test-outcome";

/**
 * Where the test window lands after the provider: the outcome, told here too (the set-up page reads
 * it as well), and a way to close the window. No console frame: it is a window of its own.
 */
export function SsoTestPage() {
  const query = useQuery(ssoSetupQueries.testResult());
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-surface px-4 py-12">
      <div className="grid w-full max-w-md gap-5">
        <div className="flex flex-col items-center gap-3 text-center">
          <BrandMark className="size-9" />
          <h1 className="text-lg font-semibold tracking-tight">Single sign-on test</h1>
        </div>
        {query.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : query.isError ? (
          <ErrorPanel
            error={query.error}
            title="Could not read the test's outcome"
            onRetry={() => void query.refetch()}
          />
        ) : (
          <TestOutcome result={query.data} className="bg-card" />
        )}
        <p className="text-center text-[13px] text-muted-foreground">
          The set-up page shows this outcome too. Nobody was signed in to the console by this test.
        </p>
        <div className="flex justify-center">
          <Button onClick={() => window.close()}>Close this window</Button>
        </div>
      </div>
    </main>
  );
}
