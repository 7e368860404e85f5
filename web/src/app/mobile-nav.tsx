import { Menu } from "lucide-react";
import { useState } from "react";
import { BrandMark } from "@/components/ui/brand-mark";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { SidebarNav } from "./sidebar";

/** On narrow screens the sidebar moves into a sheet opened from the top bar. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon-sm" className="md:hidden" aria-label="Open navigation">
          <Menu aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent
        aria-describedby={undefined}
        className="top-0 left-0 h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start gap-0 rounded-none border-y-0 border-l-0 bg-surface p-0 data-[state=open]:animate-fade-in"
      >
        <div className="flex h-14 items-center gap-2.5 px-4">
          <BrandMark />
          <DialogTitle className="text-[15px]">Keyhold</DialogTitle>
        </div>
        <SidebarNav idPrefix="sheet" onNavigate={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
