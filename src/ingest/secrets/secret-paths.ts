/**
 * Name-only rules: files refused because of what they are called, whatever
 * they contain (and even when they are binary).
 */

/** One name rule. */
export interface PathRule {
  /** Stable rule id reported in findings, e.g. `env-file`. */
  readonly id: string;
  /** One line saying which names the rule catches. */
  readonly description: string;
  /** Whether the rule refuses a path, given its lower-cased `/`-separated segments. */
  readonly matches: (segments: readonly string[]) => boolean;
}

/** Suffixes that make a `.env.*` file a template rather than a real environment. */
const ENV_TEMPLATE_SUFFIXES = new Set(["example", "sample", "template"]);
const SSH_KEY_NAMES = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"]);
const KEYSTORE_EXTENSIONS = new Set(["p12", "pfx", "jks", "keystore"]);

function basename(segments: readonly string[]): string {
  return segments[segments.length - 1] ?? "";
}

function extension(segments: readonly string[]): string {
  const base = basename(segments);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1) : "";
}

function endsWith(segments: readonly string[], tail: readonly string[]): boolean {
  if (segments.length < tail.length) return false;
  const offset = segments.length - tail.length;
  return tail.every((segment, i) => segments[offset + i] === segment);
}

/** Every name rule, in reporting order. */
export const PATH_RULES: readonly PathRule[] = [
  {
    id: "env-file",
    description: ".env and .env.* files, except .env.example, .env.sample and .env.template",
    matches: (segments) => {
      const base = basename(segments);
      if (base === ".env") return true;
      if (!base.startsWith(".env.")) return false;
      const last = base.slice(base.lastIndexOf(".") + 1);
      return !ENV_TEMPLATE_SUFFIXES.has(last);
    },
  },
  {
    id: "ssh-private-key-file",
    description: "id_rsa, id_dsa, id_ecdsa, id_ed25519 (and -sk variants); not their .pub",
    matches: (segments) => SSH_KEY_NAMES.has(basename(segments)),
  },
  {
    id: "keystore-file",
    description: "*.p12, *.pfx, *.jks, *.keystore",
    matches: (segments) => KEYSTORE_EXTENSIONS.has(extension(segments)),
  },
  {
    id: "putty-key-file",
    description: "*.ppk",
    matches: (segments) => extension(segments) === "ppk",
  },
  {
    id: "keepass-database-file",
    description: "*.kdbx",
    matches: (segments) => extension(segments) === "kdbx",
  },
  {
    id: "git-credentials-file",
    description: ".git-credentials",
    matches: (segments) => basename(segments) === ".git-credentials",
  },
  {
    id: "netrc-file",
    description: ".netrc (and Windows _netrc)",
    matches: (segments) => basename(segments) === ".netrc" || basename(segments) === "_netrc",
  },
  {
    id: "pgpass-file",
    description: ".pgpass",
    matches: (segments) => basename(segments) === ".pgpass",
  },
  {
    id: "htpasswd-file",
    description: ".htpasswd",
    matches: (segments) => basename(segments) === ".htpasswd",
  },
  {
    id: "aws-credentials-file",
    description: ".aws/credentials",
    matches: (segments) => endsWith(segments, [".aws", "credentials"]),
  },
  {
    id: "docker-config-file",
    description: ".docker/config.json",
    matches: (segments) => endsWith(segments, [".docker", "config.json"]),
  },
  {
    id: "terraform-state-file",
    description: "*.tfstate and *.tfstate.backup",
    matches: (segments) => {
      const base = basename(segments);
      return base.endsWith(".tfstate") || base.endsWith(".tfstate.backup");
    },
  },
  {
    id: "terraform-variables-file",
    description: "terraform.tfvars and terraform.tfvars.json",
    matches: (segments) => {
      const base = basename(segments);
      return base === "terraform.tfvars" || base === "terraform.tfvars.json";
    },
  },
  {
    id: "rails-master-key-file",
    description: "master.key",
    matches: (segments) => basename(segments) === "master.key",
  },
];

/**
 * The id of the first name rule that refuses `path` (a normalised POSIX
 * project-relative path), or `null`. Names compare case-insensitively.
 */
export function credentialPathRule(path: string): string | null {
  const segments = path.toLowerCase().split("/");
  for (const rule of PATH_RULES) {
    if (rule.matches(segments)) return rule.id;
  }
  return null;
}
