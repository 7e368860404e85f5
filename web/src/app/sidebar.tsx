import { FolderKanban, Import, KeyRound, type LucideIcon, Plug, ShieldCheck, UsersRound } from "lucide-react";
import { NavLink, useParams } from "react-router";
import { BrandMark } from "@/components/ui/brand-mark";
import { paths, type ProjectSection } from "@/config/paths";
import { cn } from "@/lib/cn";

const projectItems: { section: ProjectSection; label: string; icon: LucideIcon }[] = [
  { section: "secrets", label: "Secrets", icon: KeyRound },
  { section: "secretImports", label: "Secret imports", icon: Import },
  { section: "roles", label: "Roles", icon: ShieldCheck },
  { section: "access", label: "Access", icon: UsersRound },
  { section: "integrations", label: "Integrations", icon: Plug },
];

const itemClasses =
  "flex h-8 items-center gap-2.5 rounded-md px-2 text-sm font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4 [&_svg]:shrink-0";

function Item({ to, label, icon: Icon }: { to: string; label: string; icon: LucideIcon }) {
  return (
    <li>
      <NavLink
        to={to}
        className={({ isActive }) =>
          cn(
            itemClasses,
            isActive
              ? "bg-card text-foreground shadow-xs ring-1 ring-border [&_svg]:text-accent dark:[&_svg]:text-accent-hover"
              : "text-muted-foreground hover:bg-hover hover:text-foreground",
          )
        }
      >
        <Icon aria-hidden />
        {label}
      </NavLink>
    </li>
  );
}

function GroupLabel({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} className="px-2 pb-1.5 text-xs font-medium text-muted-foreground">
      {children}
    </p>
  );
}

export function Sidebar() {
  const { projectId } = useParams();
  return (
    <aside className="hidden w-60 shrink-0 flex-col border-r border-border bg-surface md:flex">
      <div className="flex h-14 items-center gap-2.5 px-4">
        <BrandMark />
        <span className="text-[15px] font-semibold tracking-tight">Keyhold</span>
      </div>
      <nav aria-label="Main" className="flex flex-1 flex-col gap-6 px-3 py-3">
        <div>
          <GroupLabel id="nav-organization">Organization</GroupLabel>
          <ul aria-labelledby="nav-organization" className="grid gap-0.5">
            <Item to={paths.identities.href()} label="Identities" icon={UsersRound} />
            <Item to={paths.projects.href()} label="Projects" icon={FolderKanban} />
          </ul>
        </div>
        <div>
          <GroupLabel id="nav-project">Project</GroupLabel>
          {projectId ? (
            <ul aria-labelledby="nav-project" className="grid gap-0.5">
              {projectItems.map((item) => (
                <Item
                  key={item.section}
                  to={paths.project[item.section].href(projectId)}
                  label={item.label}
                  icon={item.icon}
                />
              ))}
            </ul>
          ) : (
            <div className="grid gap-0.5">
              <ul aria-labelledby="nav-project" aria-describedby="nav-project-hint" className="grid gap-0.5">
                {projectItems.map(({ section, label, icon: Icon }) => (
                  <li
                    key={section}
                    aria-disabled="true"
                    className={cn(itemClasses, "cursor-default text-muted-foreground [&_svg]:opacity-60")}
                  >
                    <Icon aria-hidden />
                    {label}
                  </li>
                ))}
              </ul>
              <p id="nav-project-hint" className="px-2 pt-2 text-xs text-muted-foreground">
                Open a project to use these pages.
              </p>
            </div>
          )}
        </div>
      </nav>
    </aside>
  );
}
