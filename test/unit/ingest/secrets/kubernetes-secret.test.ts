import { describe, expect, it } from "vitest";
import { hasKubernetesSecretData } from "../../../../src/ingest/secrets/kubernetes-secret.js";
import { createScanText } from "../../../../src/ingest/secrets/secret-rule.js";

/**
 * Manifests below spell `kind` as `KIND` so that this file is not itself a
 * Secret manifest to the scanner; `check` restores it.
 */
function check(template: string): boolean {
  const text = template.replace(/KIND/g, "kind");
  return hasKubernetesSecretData(createScanText(text), text.indexOf("kind"));
}

describe("hasKubernetesSecretData", () => {
  it("finds block, flow, JSON and block-scalar data", () => {
    expect(check("KIND: Secret\ndata:\n  key: c2VjcmV0\n")).toBe(true);
    expect(check("KIND: Secret\nstringData:\n  # comment\n\n  key: plain text\n")).toBe(true);
    expect(check("KIND: Secret\nstringData:\n  config: |\n    line one\n")).toBe(true);
    expect(check('{"KIND":"Secret","data":{"k":"dg=="}}')).toBe(true);
    expect(check("KIND: Secret\ndata: {k: dg==}\n")).toBe(true);
    expect(check("apiVersion: v1\ndata:\n  k: dg==\nKIND: Secret\n")).toBe(true);
  });

  it("ignores empty data, templates and placeholders", () => {
    expect(check("KIND: Secret\ndata: {}\n")).toBe(false);
    expect(check("KIND: Secret\ndata:\nmetadata:\n  name: x\n")).toBe(false);
    expect(check("KIND: Secret\ndata:\n  k: {{ .Values.k | b64enc }}\n  j: ${J}\n  l: <base64>\n  m: ''\n  n: null\n")).toBe(false);
    expect(check("KIND: Secret\nmetadata: {name: billing}\n")).toBe(false);
    expect(check('{"KIND":"Secret","metadata":{"name":"billing"}}')).toBe(false);
  });

  it("does not cross a YAML document separator", () => {
    expect(check("KIND: Secret\nmetadata:\n  name: a\n---\nKIND: ConfigMap\ndata:\n  k: v\n")).toBe(false);
    expect(check("apiVersion: v1\ndata:\n  k: v\n---\nKIND: Secret\nmetadata:\n  name: a\n")).toBe(false);
  });

  it("does not look further than 64 Ki characters away", () => {
    expect(check(`KIND: Secret\n${"# padding\n".repeat(8000)}data:\n  k: v\n`)).toBe(false);
    expect(check(`KIND: Secret\n${"# padding\n".repeat(100)}data:\n  k: v\n`)).toBe(true);
  });
});
