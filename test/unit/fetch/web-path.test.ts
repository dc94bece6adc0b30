import { describe, expect, it } from "vitest";
import { parseSource } from "../../../src/documents/document-source.js";
import { webPath } from "../../../src/documents/web-path.js";
import { normalizePath } from "../../../src/ingest/accept/normalize-path.js";

const pathOf = (url: string) => webPath(new URL(url));

describe("the path a fetched document is stored under", () => {
  it("is web/<host>/<decoded path>, with index for a folder and the query kept", () => {
    expect(pathOf("https://Example.COM/docs/Guide%20One.md")).toBe("web/example.com/docs/Guide One.md");
    expect(pathOf("http://127.0.0.1:4321/a/b/")).toBe("web/127.0.0.1:4321/a/b/index");
    expect(pathOf("https://example.com")).toBe("web/example.com/index");
    expect(pathOf("https://example.com:443/x.md#part")).toBe("web/example.com/x.md");
    expect(pathOf("https://example.com./x?q=a/b&c=..")).toBe("web/example.com/x?q=a%2Fb&c=..");
    expect(pathOf("http://[::1]:8080/x.md")).toBe("web/[::1]:8080/x.md");
    expect(pathOf("https://bücher.de/ß.md")).toBe("web/xn--bcher-kva.de/ß.md");
  });

  it("keeps encoded what would change the path's shape or break the path rules", () => {
    expect(pathOf("https://example.com/a%2Fb/c%5Cd/e%00f/%E2%80%AEg")).toBe("web/example.com/a%2Fb/c%5Cd/e%00f/%E2%80%AEg");
    expect(pathOf("https://example.com/a/%2e%2e/b//c")).toBe("web/example.com/b/c");
    expect(pathOf("https://example.com/%ZZ")).toBe("web/example.com/%ZZ");
    for (const url of ["https://example.com/a%2Fb/c%5Cd/e%00f", "https://example.com/?x=/../../etc", "https://example.com/a/%2e%2e/%2e/b"]) {
      expect(normalizePath(pathOf(url)), url).toMatchObject({ ok: true });
    }
  });
});

describe("a document_ingest source", () => {
  it("is a URL when it starts with a scheme, a file id by its shape, a path otherwise", () => {
    expect(parseSource("https://example.com/a.md")).toEqual({ kind: "url", url: "https://example.com/a.md" });
    expect(parseSource("file:///etc/passwd")).toEqual({ kind: "url", url: "file:///etc/passwd" });
    expect(parseSource(" HTTP://x/ ")).toEqual({ kind: "url", url: "HTTP://x/" });
    expect(parseSource("fil_0123456789abcdefghijKL")).toEqual({ kind: "file", fileId: "fil_0123456789abcdefghijKL" });
    expect(parseSource("docs/guide.md")).toEqual({ kind: "path", path: "docs/guide.md" });
    expect(parseSource("./notes:2024.md")).toEqual({ kind: "path", path: "./notes:2024.md" });
    expect(parseSource("fil_short")).toEqual({ kind: "path", path: "fil_short" });
  });
});
