/**
 * Every URL in the app. Routes use `path`; links and navigation use `href(...)`.
 */
const seg = encodeURIComponent;

function projectPage(section: string) {
  return {
    path: `/projects/:projectId/${section}`,
    /** The path below `/projects/:projectId`, for nested route definitions. */
    segment: section,
    href: (projectId: string) => `/projects/${seg(projectId)}/${section}`,
  } as const;
}

/** A project page that shows one environment's folder: links to it may name the place (config/place.ts). */
function folderPage(section: string) {
  return { ...projectPage(section), showsFolder: true } as const;
}

export const paths = {
  home: { path: "/", href: () => "/" },
  signIn: {
    path: "/sign-in",
    /** `next` is where to return after signing in; it is validated again when read. */
    href: (next?: string) => (next ? `/sign-in?${new URLSearchParams({ next })}` : "/sign-in"),
  },
  identities: { path: "/identities", href: () => "/identities" },
  identity: {
    path: "/identities/:identityId",
    href: (identityId: string) => `/identities/${seg(identityId)}`,
  },
  identityEdit: {
    path: "/identities/:identityId/edit",
    href: (identityId: string) => `/identities/${seg(identityId)}/edit`,
  },
  projects: { path: "/projects", href: () => "/projects" },
  orgSettings: { path: "/settings", href: () => "/settings" },
  /** Setting up single sign-on (org admins). */
  ssoSetup: { path: "/settings/sign-in", href: () => "/settings/sign-in" },
  /** Where a test sign-in's window lands (the BFF sends it here). */
  ssoTest: { path: "/sso-test", href: () => "/sso-test" },
  auditLog: {
    path: "/audit-log",
    /**
     * `search` is a filter's query string (`?eventType=…`, see features/audit-log/audit-filter.ts);
     * `{ event }` opens that event's detail on the page.
     */
    href: (search: string | { event?: string } = "") => {
      if (typeof search === "string") return `/audit-log${search}`;
      return search.event ? `/audit-log?${new URLSearchParams({ event: search.event })}` : "/audit-log";
    },
  },
  /** The expiry radar; `?window=` is its filter (expired, 24h, all; 7 days when left out). */
  expiring: { path: "/expiring", href: () => "/expiring" },
  projectHome: { path: "/projects/:projectId", href: (projectId: string) => `/projects/${seg(projectId)}` },
  projectRole: {
    path: "/projects/:projectId/roles/:roleSlug",
    href: (projectId: string, roleSlug: string) => `/projects/${seg(projectId)}/roles/${seg(roleSlug)}`,
  },
  project: {
    secrets: folderPage("secrets"),
    secretsOverview: folderPage("overview"),
    secretImports: folderPage("secret-imports"),
    secretHistory: folderPage("secret-history"),
    roles: projectPage("roles"),
    access: projectPage("access"),
    integrations: projectPage("integrations"),
  },
} as const;

export type ProjectSection = keyof typeof paths.project;

/** Where to land after signing in when no (valid) return path was given. */
export const DEFAULT_AFTER_SIGN_IN = paths.identities.href();
