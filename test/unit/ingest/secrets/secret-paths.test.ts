import { describe, expect, it } from "vitest";
import { PATH_RULES, credentialPathRule } from "../../../../src/ingest/secrets/secret-paths.js";

describe("credentialPathRule", () => {
  it.each([
    [".env", "env-file"],
    ["config/.env", "env-file"],
    ["config/.env.production", "env-file"],
    ["apps/web/.env.local", "env-file"],
    [".env.development.local", "env-file"],
    ["home/.ssh/id_rsa", "ssh-private-key-file"],
    ["id_dsa", "ssh-private-key-file"],
    ["keys/id_ecdsa", "ssh-private-key-file"],
    ["home/.ssh/id_ed25519", "ssh-private-key-file"],
    ["home/.ssh/id_ed25519_sk", "ssh-private-key-file"],
    ["certs/client.p12", "keystore-file"],
    ["certs/server.PFX", "keystore-file"],
    ["android/app/release.jks", "keystore-file"],
    ["android/debug.keystore", "keystore-file"],
    ["keys/bastion.ppk", "putty-key-file"],
    ["vault/passwords.kdbx", "keepass-database-file"],
    ["home/.git-credentials", "git-credentials-file"],
    ["home/.netrc", "netrc-file"],
    ["home/_netrc", "netrc-file"],
    ["home/.pgpass", "pgpass-file"],
    ["deploy/nginx/.htpasswd", "htpasswd-file"],
    ["home/.aws/credentials", "aws-credentials-file"],
    [".aws/credentials", "aws-credentials-file"],
    ["home/.docker/config.json", "docker-config-file"],
    ["infra/terraform.tfstate", "terraform-state-file"],
    ["infra/prod.tfstate", "terraform-state-file"],
    ["infra/terraform.tfstate.backup", "terraform-state-file"],
    ["infra/terraform.tfvars", "terraform-variables-file"],
    ["infra/terraform.tfvars.json", "terraform-variables-file"],
    ["config/master.key", "rails-master-key-file"],
  ])("refuses %s as %s", (path, rule) => {
    expect(credentialPathRule(path)).toBe(rule);
  });

  it.each([
    ".env.example",
    "config/.env.sample",
    ".env.template",
    ".env.local.example",
    "src/env.ts",
    "src/.envrc.md",
    "docs/env.md",
    "home/.ssh/id_rsa.pub",
    "home/.ssh/id_ed25519.pub",
    "home/.ssh/known_hosts",
    "src/id_rsa_parser.ts",
    "src/keystore.ts",
    "docs/p12.md",
    "home/.aws/config",
    "credentials",
    "src/credentials.ts",
    "docker/config.json",
    ".docker/daemon.json",
    "infra/main.tf",
    "infra/variables.tf",
    "infra/example.tfvars",
    "config/credentials.yml.enc",
    "src/master.key.ts",
    "README.md",
    "package.json",
  ])("lets %s through", (path) => {
    expect(credentialPathRule(path)).toBeNull();
  });

  it("has unique rule ids", () => {
    const ids = PATH_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
