/**
 * The content rules, as data. Order matters only to break ties: when several
 * rules hit the same line, the earliest rule in this list is reported, so
 * specific token formats come first and the generic assignment rule last.
 *
 * Every pattern is written for JavaScript's RegExp (no RE2-only syntax) with
 * bounded quantifiers only. Each starts with a literal (`AKIA`, `BEGIN`,
 * `://`, `Authorization`), possibly behind a one-character lookbehind, so the
 * engine skips ahead at substring-search speed; context that would otherwise
 * come first (the dashes before `BEGIN`, the `-H` before `Authorization`) is
 * checked by a lookbehind placed after the literal.
 */
import { isInCurlCommand } from "./curl-context.js";
import { shannonEntropy } from "./entropy.js";
import { isExampleContext } from "./example-context.js";
import { hasKubernetesSecretData } from "./kubernetes-secret.js";
import { looksRandom } from "./looks-random.js";
import { isDegenerate, isPlaceholder } from "./placeholder.js";
import { hasPrivateKeyBody } from "./private-key-body.js";
import type { ScanText, SecretRule } from "./secret-rule.js";

/** The capture group `group` of a match, or the empty string. */
function group(match: RegExpExecArray, index: number): string {
  return match[index] ?? "";
}

/** Validator: capture group 1 is not a placeholder. */
function notPlaceholder(match: RegExpExecArray): boolean {
  return !isPlaceholder(group(match, 1));
}

/** Validator: key material follows the private-key header. */
function keyBodyFollows(match: RegExpExecArray, scan: ScanText): boolean {
  return hasPrivateKeyBody(scan.text, match.index + match[0].length);
}

/** Decodes base64 or base64url text, or returns null when it is neither. */
function decodeBase64(value: string): string | null {
  if (!/^[A-Za-z0-9+/_-]{1,20000}={0,2}$/.test(value)) return null;
  return Buffer.from(value, value.includes("+") || value.includes("/") ? "base64" : "base64url").toString("utf8");
}

/**
 * `"alg"` encoded in base64 at each of the three byte alignments, keeping
 * only the characters that do not depend on the neighbouring bytes. A JWT
 * header holds one of them, so most candidates are rejected without decoding.
 */
const ALG_IN_BASE64 = ["ImFsZy", "JhbGci", "iYWxnI"];

/** Validator: the first JWT segment is a JSON object naming an `alg`. */
function isJwtHeader(match: RegExpExecArray): boolean {
  const segment = match[0].slice(0, match[0].indexOf("."));
  if (!ALG_IN_BASE64.some((form) => segment.includes(form))) return false;
  const header = decodeBase64(segment);
  if (header === null || !header.includes('"alg"')) return false;
  try {
    const parsed: unknown = JSON.parse(header);
    return typeof parsed === "object" && parsed !== null && typeof (parsed as { alg?: unknown }).alg === "string";
  } catch {
    return false;
  }
}

/** Passwords that documentation and tests put in example URLs. */
const EXAMPLE_PASSWORDS = new Set([
  "password",
  "passwd",
  "pass",
  "pwd",
  "pw",
  "secret",
  "changeme",
  "mypassword",
  "yourpassword",
  "secretpassword",
  "mysecretpassword",
  "supersecret",
  "s3cr3t",
  "hunter2",
  "token",
  "apikey",
  "api_key",
  "key",
  "user",
  "username",
  "admin",
  "root",
  "guest",
  "test",
  "foo",
  "bar",
  "baz",
  "qux",
  "pass123",
  "password123",
  "letmein",
]);

/** User names that mark a URL as an example. */
const EXAMPLE_USERS = new Set(["user", "username", "usr", "name", "login", "myuser", "youruser", "your_username", "foo"]);

/** Percent-escapes decoded (`a%20secret` → `a secret`); the text as it is when they are malformed. */
function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Words with spaces between them (`a secret`): prose in a URL, which no generated password is. */
const PROSE = /^[A-Za-z]{1,64}(?: [A-Za-z]{1,64}){1,16}$/;

/**
 * Validator: a URL's userinfo password is a literal, not an example or a
 * template. Written as an example (a comment, a docstring, a test fixture:
 * see example-context.ts), it must also look generated.
 */
function isRealUrlPassword(match: RegExpExecArray, scan: ScanText): boolean {
  if (EXAMPLE_USERS.has(group(match, 1).toLowerCase())) return false;
  const raw = group(match, 2);
  if (raw.length < 4) return false;
  if (/^[%:*.]/.test(raw)) return false;
  const password = percentDecoded(raw);
  if (EXAMPLE_PASSWORDS.has(password.toLowerCase()) || PROSE.test(password)) return false;
  if (isPlaceholder(password)) return false;
  return !isExampleContext(scan, match.index) || looksRandom(password);
}

/** Validator: an `Authorization` header value on a curl command line is a literal credential. */
function isCurlCredential(match: RegExpExecArray, scan: ScanText): boolean {
  const scheme = group(match, 1).toLowerCase();
  const value = group(match, 2);
  if (/[$%{}<>@]/.test(value)) return false;
  if (!isInCurlCommand(scan, match.index)) return false;
  if (scheme === "basic") {
    const decoded = decodeBase64(value);
    if (decoded !== null) {
      const colon = decoded.indexOf(":");
      if (colon > 0 && /^[\x20-\x7e]{1,1000}$/.test(decoded)) {
        const password = decoded.slice(colon + 1);
        return password.length >= 4 && !EXAMPLE_PASSWORDS.has(password.toLowerCase()) && !isPlaceholder(password);
      }
    }
  }
  return looksRandom(value);
}

/** Shortest value a secret-named assignment written as an example must have to count as a pasted key. */
const MIN_EXAMPLE_KEY_LENGTH = 16;

/** Characters of a generic assignment's value (the pattern's value class). */
const ASSIGNED_VALUE_CHAR = /[A-Za-z0-9+/_.~!@#%^&*=-]/;

/**
 * Validator: the generic assignment's value is random-looking, is not the
 * start of an expression (`getSecret(`, `env[`), and ends within the
 * pattern's 256 characters: longer values are blobs (sealed or encrypted
 * data, certificates), which have rules of their own when they are keys.
 */
function isSecretAssignment(match: RegExpExecArray, scan: ScanText): boolean {
  const value = group(match, 1);
  const next = scan.text[match.index + match[0].length] ?? "";
  if (next === "(" || next === "[" || next === "$" || next === "{") return false;
  if (ASSIGNED_VALUE_CHAR.test(next)) return false;
  if (!looksRandom(value)) return false;
  // An example (comment, docstring, test fixture) holds a short made-up value; a pasted key is longer.
  return value.length >= MIN_EXAMPLE_KEY_LENGTH || !isExampleContext(scan, match.index);
}

/** Every content rule, most specific first. */
export const SECRET_RULES: readonly SecretRule[] = [
  // Our own keys: any `pks_` + 40 or more base62 characters, unless the body
  // is degenerate (`pks_XXXX...`); placeholder words are not checked here.
  {
    id: "pks-api-key",
    description: "pks API key (pks_ followed by base62)",
    pattern: /(?<![A-Za-z0-9_])pks_([0-9A-Za-z]{40})/,
    validate: (match) => !isDegenerate(group(match, 1)),
  },
  // Bounded by base64 characters too, so a run inside base64 data is not a
  // key id. The AWS documentation pair (AKIAIOSFODNN7EXAMPLE and its secret)
  // is published, so it counts as a placeholder (`example`), as does
  // AKIAXXXXXXXXXXXXXXXX.
  {
    id: "aws-access-key-id",
    description: "AWS access key id (AKIA/ASIA/ABIA/ACCA/A3T prefix)",
    pattern: /(?<![A-Za-z0-9+/])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16})(?![A-Za-z0-9+/])/,
    validate: notPlaceholder,
  },
  {
    id: "aws-secret-access-key",
    description: "AWS secret access key assigned to an aws_secret_access_key-like name",
    pattern:
      /(?<![A-Za-z0-9])(?:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)["']?[ \t]{0,4}(?:=>|:=|=|:)[ \t]{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/i,
    validate: (match) => !isPlaceholder(group(match, 1)) && shannonEntropy(group(match, 1)) >= 3.5,
  },
  {
    id: "openssh-private-key",
    description: "OpenSSH private key block",
    pattern: /BEGIN(?<=-{4} ?BEGIN) OPENSSH PRIVATE KEY ?-{4,5}/,
    validate: keyBodyFollows,
  },
  {
    id: "pem-private-key",
    description: "PEM or PGP private key block (RSA, EC, DSA, PKCS#8, encrypted, PGP, SSH2)",
    pattern: /BEGIN(?<=-{4} ?BEGIN) (?!OPENSSH )(?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)? ?-{4,5}/,
    validate: keyBodyFollows,
  },
  {
    id: "putty-private-key",
    description: "PuTTY private key (.ppk) body",
    pattern: /Private-Lines: ?[0-9]{1,4}\r?\n([A-Za-z0-9+/=]{40})/,
    validate: (match) => !isDegenerate(group(match, 1)),
  },
  {
    id: "github-token",
    description: "GitHub personal, OAuth, user-to-server, server-to-server or refresh token",
    pattern: /(?<![A-Za-z0-9_])gh[pousr]_([A-Za-z0-9]{36,251})(?![A-Za-z0-9_])/,
    validate: notPlaceholder,
  },
  {
    id: "github-fine-grained-token",
    description: "GitHub fine-grained personal access token",
    pattern: /(?<![A-Za-z0-9_])github_pat_([A-Za-z0-9]{20,40}_[A-Za-z0-9]{50,90})(?![A-Za-z0-9_])/,
    validate: notPlaceholder,
  },
  {
    id: "gitlab-token",
    description: "GitLab personal, deploy, runner, trigger, OAuth or feed token",
    pattern:
      /(?<![A-Za-z0-9_-])(?:(?:glpat|gldt|glrt|glptt|glcbt|glsoat|glffct|glimt|glagent|gloas|glft)-|GR1348941)([0-9A-Za-z_-]{20,100})/,
    validate: notPlaceholder,
  },
  {
    id: "npm-access-token",
    description: "npm access token",
    pattern: /(?<![A-Za-z0-9_])npm_([A-Za-z0-9]{36})(?![A-Za-z0-9_])/,
    validate: notPlaceholder,
  },
  {
    id: "npmrc-auth",
    description: "literal _authToken/_auth/_password in an .npmrc",
    pattern: /(?<![A-Za-z0-9])_(?:authToken|auth|password)[ \t]{0,4}=[ \t]{0,4}["']?([A-Za-z0-9._~+/-]{12,512}={0,2})/,
    validate: (match) => looksRandom(group(match, 1)),
  },
  {
    id: "pypi-token",
    description: "PyPI or TestPyPI API token",
    pattern: /(?<![A-Za-z0-9_-])pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)([A-Za-z0-9_-]{50,1000})/,
    validate: notPlaceholder,
  },
  {
    id: "slack-token",
    description: "Slack bot, user, workspace or refresh token",
    pattern:
      /(?<![A-Za-z0-9_-])(?:xox[abposr]-(?:[0-9]{6,14}-){1,3}([0-9A-Za-z]{16,64})(?![0-9A-Za-z])|xoxe(?:\.xox[bp])?-1-([0-9A-Za-z-]{50,300}))/,
    validate: (match) => !isPlaceholder(group(match, 1) || group(match, 2)),
  },
  {
    id: "slack-app-token",
    description: "Slack app-level token",
    pattern: /(?<![A-Za-z0-9_-])xapp-[0-9]-[A-Z0-9]{8,14}-[0-9]{8,16}-([a-f0-9]{32,80})/,
    validate: notPlaceholder,
  },
  {
    id: "slack-webhook-url",
    description: "Slack incoming webhook URL",
    pattern: /hooks\.slack\.com\/services\/T[A-Z0-9]{6,14}\/B[A-Z0-9]{6,14}\/([A-Za-z0-9]{20,40})/,
    validate: notPlaceholder,
  },
  {
    id: "stripe-secret-key",
    description: "Stripe secret or restricted key (live or test)",
    pattern: /(?<![A-Za-z0-9_])[rs]k_(?:live|test)_([0-9A-Za-z]{20,247})(?![0-9A-Za-z])/,
    validate: notPlaceholder,
  },
  {
    id: "stripe-webhook-secret",
    description: "Stripe webhook signing secret",
    pattern: /(?<![A-Za-z0-9_])whsec_([A-Za-z0-9+/]{32,64})/,
    validate: notPlaceholder,
  },
  {
    id: "anthropic-api-key",
    description: "Anthropic API, admin or OAuth key",
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[a-z]{2,10}[0-9]{2}-([A-Za-z0-9_-]{32,200})/,
    validate: notPlaceholder,
  },
  {
    id: "openai-api-key",
    description: "OpenAI API key (legacy, project, service-account or admin)",
    pattern:
      /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-([A-Za-z0-9_-]{40,300})|([A-Za-z0-9_-]{16,200}T3BlbkFJ[A-Za-z0-9_-]{16,200}))/,
    validate: (match) => !isPlaceholder(group(match, 1) || group(match, 2)),
  },
  {
    id: "google-api-key",
    description: "Google API key",
    pattern: /(?<![A-Za-z0-9_-])AIza([0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/,
    validate: notPlaceholder,
  },
  {
    id: "google-oauth-client-secret",
    description: "Google OAuth client secret",
    pattern: /(?<![A-Za-z0-9_-])GOCSPX-([0-9A-Za-z_-]{28})(?![0-9A-Za-z_-])/,
    validate: notPlaceholder,
  },
  {
    id: "google-oauth-access-token",
    description: "Google OAuth access token",
    pattern: /(?<![A-Za-z0-9_.-])ya29\.([0-9A-Za-z_-]{30,2048})/,
    validate: notPlaceholder,
  },
  {
    id: "huggingface-token",
    description: "Hugging Face user or organisation token",
    pattern: /(?<![A-Za-z0-9_])(?:hf|api_org)_([A-Za-z]{34})(?![A-Za-z0-9_])/,
    validate: (match) => {
      const body = group(match, 1);
      return /[a-z]/.test(body) && /[A-Z]/.test(body) && !isPlaceholder(body) && shannonEntropy(body) >= 3.5;
    },
  },
  {
    id: "sendgrid-api-key",
    description: "SendGrid API key",
    pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/,
    validate: notPlaceholder,
  },
  {
    id: "shopify-token",
    description: "Shopify access token or shared secret",
    pattern: /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_([a-fA-F0-9]{32})(?![A-Za-z0-9_])/,
    validate: notPlaceholder,
  },
  {
    id: "digitalocean-token",
    description: "DigitalOcean personal, OAuth or refresh token",
    pattern: /(?<![A-Za-z0-9_])do[opr]_v1_([a-f0-9]{64})(?![A-Za-z0-9_])/,
    validate: notPlaceholder,
  },
  {
    id: "azure-storage-account-key",
    description: "Azure storage account key in a connection string",
    pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/i,
    validate: notPlaceholder,
  },
  // Three segments, the first two JSON objects (`eyJ` is base64 for `{"`),
  // the header naming an `alg`, a signature of at least 16 characters
  // (unsigned `alg: none` tokens carry no credential).
  {
    id: "jwt",
    description: "JSON Web Token (header with alg, payload, signature)",
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{16,4096}/,
    validate: isJwtHeader,
  },
  {
    id: "kubernetes-secret",
    description: "Kubernetes Secret manifest with data or stringData values",
    pattern: /(?<![A-Za-z0-9_])["']?kind["']?[ \t]{0,8}:[ \t]{0,8}["']?Secret["']?(?![A-Za-z0-9_])/,
    validate: (match, scan) => hasKubernetesSecretData(scan, match.index),
  },
  {
    id: "url-credentials",
    description: "URL with a literal user:password@ userinfo",
    pattern:
      /:\/\/(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,19}:\/\/)([^\s/?#@:'"`<>\\${}()[\],;|]{0,64}):([^\s/?#@:'"`<>\\${}()[\],;|]{1,128})@(?=[A-Za-z0-9[])/,
    validate: isRealUrlPassword,
  },
  {
    id: "curl-authorization-header",
    description: "literal Authorization header on a curl command line",
    pattern:
      /Authorization(?<=(?<![A-Za-z0-9_-])(?:-H|--header)(?:[ \t]{1,4}|=)["']?[ \t]{0,4}Authorization)[ \t]{0,4}:[ \t]{0,4}(?:(Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key|JWT|OAuth|SSWS)[ \t]{1,4})?([^\s"'\\]{8,4096})/i,
    validate: isCurlCredential,
  },
  // The key name must end in a secret word (optionally followed by a suffix
  // such as `_base` or `Hex`); the value must pass `looksRandom`.
  {
    id: "generic-secret-assignment",
    description: "high-entropy literal assigned to a secret-named key (password, secret, token, api_key, ...)",
    pattern:
      /(?:pass(?:word|wd|phrase)?|pwd|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key|auth[_-]?(?:key|token)|private[_-]?key|client[_-]?secret|credentials?|signing[_-]?key|encryption[_-]?key|master[_-]?key)(?:[_.-]?(?:base|hex|b64|base64|value|raw|v[0-9]))?["'\]]{0,2}[ \t]{0,4}(?:=>|:=|\?=|=|:)[ \t]{0,4}["'`]?([A-Za-z0-9+/_.~!@#%^&*-]{12,256}={0,2})/i,
    validate: isSecretAssignment,
  },
];
