/** A browser-like client of the console for tests: cookies, Host, and the CSRF field of a page. */
import type { TestWorld } from "./test-app.js";

export interface Seen {
  status: number;
  headers: string;
  body: string;
}

/** A browser-like client: keeps cookies per name, sends Host, remembers every answer it saw. */
export class Client {
  readonly cookies = new Map<string, string>();
  readonly seen: Seen[] = [];
  constructor(private readonly w: TestWorld) {}

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string>; base?: string } = {}): Promise<{ res: Response; text: string }> {
    const headers = new Headers(init.headers);
    headers.set("host", "127.0.0.1:8787");
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    let body: string | undefined;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const res = await this.w.app.http.request(`${init.base ?? "http://127.0.0.1:8787"}${path}`, { method: init.method ?? (init.form ? "POST" : "GET"), headers, body });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    this.seen.push({ status: res.status, headers: JSON.stringify([...res.headers]), body: text });
    return { res, text };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request(path, { headers });
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>) {
    return this.request(path, { form, headers });
  }

  async signIn(key: string): Promise<Response> {
    const { text } = await this.get("/sign-in");
    const { res } = await this.post("/sign-in", { csrf: csrfOf(text), apiKey: key });
    return res;
  }
}

export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error("no CSRF field on the page");
  return m[1]!;
}
