/**
 * What every answer to a fuzzed request must be: never a 5xx; a non-2xx
 * body is exactly the JSON error envelope `{error: {status, code, message}}`
 * with a known code of that status; no body carries driver text
 * (`SQLITE_`, `LIBSQL`), a stack line, or a path of the server's files
 * (unless the request itself carried that text, as an echoed path may).
 */
import { ERROR_TABLE } from "../../../src/errors.js";
import type { ErrorCode } from "../../../src/errors.js";

/** An answer as the checks see it. */
export interface Answer {
  status: number;
  text: string;
  contentType: string | null;
}

/** Top-level envelope fields besides `error` that some errors carry. */
const ENVELOPE_EXTRAS = new Set(["categorySchema"]);

const LEAKS: Array<[string, RegExp]> = [
  ["SQLITE_", /SQLITE_/],
  ["LIBSQL", /LIBSQL/i],
  ["stack line", /\bat\s+(?:\S+\s+\()?(?:file:\/\/|\/|node:|[A-Za-z]:\\)\S*:\d+:\d+/],
  ["/work/ path", /\/work\//],
  ["node_modules path", /node_modules/],
];

/** Text the answer must not carry unless the request did: driver names, stack lines, server paths (`serverPaths` besides the fixed ones). */
export function leakProblems(text: string, carried: string, serverPaths: readonly string[] = []): string[] {
  const problems: string[] = [];
  for (const [what, pattern] of LEAKS) if (pattern.test(text) && !pattern.test(carried)) problems.push(`answer carries ${what}`);
  for (const p of serverPaths) if (p && text.includes(p) && !carried.includes(p)) problems.push(`answer carries the server path ${p}`);
  return problems;
}

/** Problems of an error envelope given as a value, against the status it came with. */
export function envelopeProblems(body: unknown, status: number): string[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return ["error body is not a JSON object"];
  const keys = Object.keys(body);
  const problems: string[] = [];
  const stray = keys.filter((k) => k !== "error" && !ENVELOPE_EXTRAS.has(k));
  if (stray.length > 0) problems.push(`error body has stray keys ${stray.join(",")}`);
  const error = (body as { error?: unknown }).error;
  if (error === null || typeof error !== "object" || Array.isArray(error)) return [...problems, "error body has no error object"];
  const e = error as Record<string, unknown>;
  const eKeys = Object.keys(e).sort().join(",");
  if (eKeys !== "code,message,status") problems.push(`error object has keys ${eKeys}`);
  if (e.status !== status) problems.push(`error.status ${String(e.status)} is not the HTTP status ${status}`);
  const known = typeof e.code === "string" && Object.hasOwn(ERROR_TABLE, e.code);
  if (!known) problems.push(`unknown error code ${JSON.stringify(e.code)}`);
  else if (ERROR_TABLE[e.code as ErrorCode].status !== status) problems.push(`code ${String(e.code)} belongs to status ${ERROR_TABLE[e.code as ErrorCode].status}, not ${status}`);
  if (typeof e.message !== "string" || e.message.length === 0) problems.push("error.message is not a non-empty string");
  return problems;
}

/** Every problem of one HTTP answer; empty when it keeps the contract. */
export function answerProblems(answer: Answer, carried: string, serverPaths: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok) {
    if (!answer.contentType?.startsWith("application/json")) problems.push(`error content-type ${String(answer.contentType)}`);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push(`error body is not JSON: ${answer.text.slice(0, 80)}`);
    }
    if (body !== undefined) problems.push(...envelopeProblems(body, answer.status));
  }
  problems.push(...leakProblems(answer.text, carried, ok ? [] : serverPaths));
  return problems;
}

/** An MCP `tools/call` result, as the client hands it back. */
export interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** Problems of one `tools/call` result; `status` is the envelope's (200 for a result). */
export function toolResultProblems(result: ToolResult, carried: string, serverPaths: readonly string[] = []): { status: number; problems: string[] } {
  const text = result.content?.[0]?.text ?? "";
  const problems = leakProblems(text, carried, result.isError ? serverPaths : []);
  const structured = result.structuredContent;
  if (!result.isError) {
    if (!structured || typeof structured.action !== "string" || !("result" in structured)) problems.push("result has no {action, result}");
    return { status: 200, problems };
  }
  const status = Number((structured?.error as { status?: unknown } | undefined)?.status);
  problems.push(...envelopeProblems(structured, Number.isFinite(status) ? status : -1));
  if (status >= 500) problems.push(`status ${status}`);
  try {
    if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(structured)) problems.push("text content is not the structured envelope");
  } catch {
    problems.push("text content is not JSON");
  }
  return { status: Number.isFinite(status) ? status : -1, problems };
}
