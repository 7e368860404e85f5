import {
  CalendarClock,
  Columns3,
  FolderKanban,
  Import,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  Plug,
  Settings,
  ScrollText,
  ShieldCheck,
  UsersRound,
} from "lucide-react";
import { NavLink, useLocation, useParams } from "react-router";
import { BrandMark } from "@/components/ui/brand-mark";
import { paths, type ProjectSection } from "@/config/paths";
import { type FolderPlace, readPlace, withPlace } from "@/config/place";
import { cn } from "@/lib/cn";

const projectItems: { section: ProjectSection; label: string; icon: LucideIcon }[] = [
  { section: "secrets", label: "Secrets", icon: KeyRound },
  { section: "secretsOverview", label: "Secrets overview", icon: Columns3 },
  { section: "secretImports", label: "Secret imports", icon: Import },
  { section: "roles", label: "Roles", icon: ShieldCheck },
  { section: "access", label: "Access", icon: UsersRound },
  { section: "integrations", label: "Integrations", icon: Plug },
];

const itemClasses =
  "flex h-8 items-center gap-2.5 rounded-md px-2 text-sm font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4 [&_svg]:shrink-0";

interface ItemProps {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
  onNavigate?: (() => void) | undefined;
}

function Item({ to, label, icon: Icon, end = false, onNavigate }: ItemProps) {
  return (
    <li>
      <NavLink
        to={to}
        end={end}
        onClick={onNavigate}
        className={({ isActive }) =>
          cn(
            itemClasses,
            isActive
              ? "bg-card text-foreground shadow-xs ring-1 ring-border [&_svg]:text-accent-text"
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

function sectionHref(projectId: string, section: ProjectSection, place: FolderPlace): string {
  const page = paths.project[section];
  return "showsFolder" in page ? withPlace(page.href(projectId), place) : page.href(projectId);
}

/** The app's navigation; rendered in the sidebar, and in a sheet on narrow screens. */
export function SidebarNav({ idPrefix, onNavigate }: { idPrefix: string; onNavigate?: () => void }) {
  const { projectId } = useParams();
  // The environment and folder open now: the other pages that show a folder open on the same one.
  const place = readPlace(new URLSearchParams(useLocation().search));
  return (
    <nav aria-label="Main" className="flex flex-1 flex-col gap-6 px-3 py-3">
      <div>
        <GroupLabel id={`${idPrefix}-organization`}>Organization</GroupLabel>
        <ul aria-labelledby={`${idPrefix}-organization`} className="grid gap-0.5">
          <Item to={paths.identities.href()} label="Identities" icon={UsersRound} onNavigate={onNavigate} />
          <Item to={paths.projects.href()} label="Projects" icon={FolderKanban} end onNavigate={onNavigate} />
          <Item to={paths.expiring.href()} label="Expiring" icon={CalendarClock} onNavigate={onNavigate} />
          <Item to={paths.auditLog.href()} label="Audit log" icon={ScrollText} onNavigate={onNavigate} />
          <Item to={paths.orgSettings.href()} label="Settings" icon={Settings} onNavigate={onNavigate} />
        </ul>
      </div>
      <div>
        <GroupLabel id={`${idPrefix}-project`}>Project</GroupLabel>
        {projectId ? (
          <ul aria-labelledby={`${idPrefix}-project`} className="grid gap-0.5">
            <Item
              to={paths.projectHome.href(projectId)}
              label="Overview"
              icon={LayoutDashboard}
              end
              onNavigate={onNavigate}
            />
            {projectItems.map((item) => (
              <Item
                key={item.section}
                to={sectionHref(projectId, item.section, place)}
                label={item.label}
                icon={item.icon}
                onNavigate={onNavigate}
              />
            ))}
          </ul>
        ) : (
          <div className="grid gap-0.5">
            <ul
              aria-labelledby={`${idPrefix}-project`}
              aria-describedby={`${idPrefix}-project-hint`}
              className="grid gap-0.5"
            >
              {[{ section: "overview", label: "Overview", icon: LayoutDashboard }, ...projectItems].map(
                ({ section, label, icon: Icon }) => (
                  <li
                    key={section}
                    className={cn(itemClasses, "cursor-default text-muted-foreground [&_svg]:opacity-60")}
                  >
                    <Icon aria-hidden />
                    {label}
                  </li>
                ),
              )}
            </ul>
            <p id={`${idPrefix}-project-hint`} className="px-2 pt-2 text-xs text-muted-foreground">
              Open a project to use these pages.
            </p>
          </div>
        )}
      </div>
    </nav>
  );
}

export function Sidebar() {
  return (
    <aside className="hidden w-60 shrink-0 flex-col border-r border-border bg-surface md:flex">
      <div className="flex h-14 items-center gap-2.5 px-4">
        <BrandMark />
        <span className="text-[15px] font-semibold tracking-tight">Keyhold</span>
      </div>
      <SidebarNav idPrefix="sidebar" />
    </aside>
  );
}
