import { RE2JS } from "re2js";
import { AppError } from "../../errors.js";

/**
 * Caller-supplied regular expressions (`pattern`, `patternProperties`) run
 * on RE2 (re2js, a pure-JS port): matching time is linear in the input, so a
 * pattern like `^(\w+\s?)*$` cannot stall the event loop the way V8's
 * backtracking RegExp does. Patterns RE2 cannot express (backreferences,
 * lookaround) are refused with 400 rather than run anywhere else.
 */

/** ECMAScript's `\s` (RE2's is ASCII only), so patterns keep their JSON Schema (ECMA-262) meaning. */
const ECMA_SPACE = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** ECMAScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes only `\n`). */
const ECMA_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const MAX_SHOWN = 80;

/**
 * Compiles an ECMA-262 pattern on RE2, or throws 400 naming the pattern.
 * ECMAScript spellings RE2 lacks (`\uXXXX`, `(?<name>…)`, `\cX`) are
 * translated first; `\s`, `\S` and `.` are widened to their ECMAScript sets.
 */
export function compileLinear(pattern: string): RE2JS {
  try {
    return RE2JS.compile(ecmaClasses(RE2JS.translateRegExp(pattern)));
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, "") : "unsupported syntax";
    const shown = pattern.length > MAX_SHOWN ? `${pattern.slice(0, MAX_SHOWN)}…` : pattern;
    throw new AppError("invalid_input", {
      message: `invalid input: schema: pattern ${JSON.stringify(shown)} is not supported (${why}; backreferences and lookaround cannot run in linear time)`,
    });
  }
}

/** Rewrites `\s`, `\S` (outside classes) and `.` to ECMAScript's sets; escapes and class contents otherwise kept. */
function ecmaClasses(p: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\" && i + 1 < p.length) {
      const e = p[i + 1]!;
      i++;
      if (e === "s") out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (e === "S" && !inClass) out += `[^${ECMA_SPACE}]`;
      else out += c + e;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
      if (p[i + 1] === "^") out += p[++i];
      if (p[i + 1] === "]") out += p[++i];
    } else out += c === "." ? ECMA_DOT : c;
  }
  return out;
}
