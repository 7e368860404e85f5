/**
 * A browser, as far as single sign-on needs one: plain HTTP, redirects followed by hand, cookies
 * kept per origin (HttpOnly or not, as a browser keeps them) and sent back to the same origin.
 * Requests to the console's public origin go to the BFF under test.
 */

export interface Visit {
  status: number;
  /** The URL that answered (after the redirects followed). */
  url: string;
  location: string | undefined;
  text: string;
  headers: Headers;
  /** Every URL requested, in order. */
  trail: string[];
}

export class TestBrowser {
  readonly #jar = new Map<string, Map<string, string>>();

  constructor(
    /** The console's public origin (KEYHOLD_PUBLIC_URL). */
    private readonly publicOrigin: string,
    /** Where the BFF really listens. */
    private readonly bffOrigin: string,
  ) {}

  cookies(origin: string): Map<string, string> {
    let cookies = this.#jar.get(origin);
    if (!cookies) {
      cookies = new Map();
      this.#jar.set(origin, cookies);
    }
    return cookies;
  }

  /** The cookie header this browser sends to the console. */
  consoleCookieHeader(): string {
    return [...this.cookies(this.publicOrigin)].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** One request, no redirect followed. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const target = new URL(url);
    const origin = target.origin;
    const real = origin === this.publicOrigin ? new URL(target.pathname + target.search, this.bffOrigin) : target;
    const cookie = [...this.cookies(origin)].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(real, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        ...(cookie && { cookie }),
        ...(init.form && { "content-type": "application/x-www-form-urlencoded" }),
        ...init.headers,
      },
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) this.#store(origin, line);
    const text = await response.text();
    const location = response.headers.get("location");
    return {
      status: response.status,
      url,
      location: location === null ? undefined : new URL(location, url).toString(),
      text,
      headers: response.headers,
    };
  }

  /**
   * A navigation: redirects are followed until a page answers, or until the console itself is
   * reached outside /bff/ (where the console's single-page app would take over).
   */
  async navigate(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Visit> {
    const trail: string[] = [];
    let next = await this.request(url, init);
    trail.push(url);
    for (let hops = 0; next.location && next.status >= 300 && next.status < 400; hops++) {
      if (hops > 20) throw new Error(`too many redirects: ${trail.join(" → ")}`);
      const target = new URL(next.location);
      if (target.origin === this.publicOrigin && !target.pathname.startsWith("/bff/")) break;
      trail.push(next.location);
      next = await this.request(next.location);
    }
    return { ...next, trail };
  }

  #store(origin: string, line: string): void {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some((a) => {
      const [key = "", v = ""] = a.split("=");
      if (key.toLowerCase() === "max-age") return Number(v) <= 0;
      if (key.toLowerCase() === "expires") return Date.parse(v) <= Date.now();
      return false;
    });
    if (expired || value === "") this.cookies(origin).delete(name);
    else this.cookies(origin).set(name, value);
  }
}

/** The action of the provider's login form on a page. */
export function loginFormAction(page: Visit): string {
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
  if (!action) throw new Error(`no login form at ${page.url}: ${page.status} ${page.text.slice(0, 200)}`);
  return new URL(action.replace(/&amp;/g, "&"), page.url).toString();
}
