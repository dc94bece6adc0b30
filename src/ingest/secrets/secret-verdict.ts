/**
 * The credential check at reading time, as the reading worker needs it: a
 * file's failure message, or nothing. Accept time scans the bytes of an
 * ingest call; content replacement (`PUT …/files/{id}/content`) brings
 * bytes no accept step saw, and a Word document or a compressed PDF shows
 * its text only to its reader. So the worker checks the bytes before
 * reading and the reading after, and a file that fails stores nothing.
 * Pure functions over their arguments: safe in a worker thread.
 */
import type { ReadOutput } from "../../readers/reader.js";
import { findSecretInReading } from "./find-secret-in-reading.js";
import type { ReadingFinding } from "./find-secret-in-reading.js";
import { scanForSecrets } from "./scan-for-secrets.js";

export type { ReadingFinding } from "./find-secret-in-reading.js";

/** What the check needs to know of a file: its normalised path and whether its ingest named it with includeSecret. */
export interface SecretCheckedFile {
  path: string;
  includeSecret: boolean;
}

/**
 * A reading refused because the file looks like a credential; `message` is
 * the file's failure message. A distinct class so that whoever runs the
 * reading (the reader pool) can tell it from a reader's error: a refused
 * file stores no reading and its bytes are dropped, where a reader's error
 * only fails the file.
 */
export class CredentialRefusal extends Error {
  override readonly name = "CredentialRefusal";
}

/**
 * The refusal wording of accept time (accept-files.ts), so that a file
 * failed at reading time says the same thing: rule, then line (or PDF
 * page) when there is one, then how to read it anyway.
 */
export function credentialRefusal(finding: ReadingFinding): string {
  const where = finding.line > 0 ? `, line ${finding.line}` : finding.page !== undefined ? `, page ${finding.page}` : "";
  return `looks like a credential (rule ${finding.rule}${where}); name this path with includeSecret to read it`;
}

/**
 * The failure message for a file whose bytes look like a credential (name
 * rules, then every content rule on the text and on it with references and
 * escapes decoded), or undefined when they do not or when the file was
 * ingested with includeSecret. Call it before reading.
 */
export function secretVerdictOnBytes(file: SecretCheckedFile, bytes: Uint8Array): string | undefined {
  if (file.includeSecret) return undefined;
  const finding = scanForSecrets(file.path, bytes);
  return finding === null ? undefined : credentialRefusal(finding);
}

/**
 * The failure message for a file whose reading (any faction or cell text)
 * looks like a credential, or undefined when it does not or when the file
 * was ingested with includeSecret. Call it after reading, before storing.
 */
export function secretVerdictOnReading(file: SecretCheckedFile, output: ReadOutput): string | undefined {
  if (file.includeSecret) return undefined;
  const finding = findSecretInReading(file.path, output);
  return finding === undefined ? undefined : credentialRefusal(finding);
}

/**
 * Both checks in one call: the bytes, then the reading when there is one.
 * The worker may call it twice (without `output` before reading, with it
 * after); the bytes scan is then run twice, so the two functions above are
 * the cheaper wiring.
 */
export function secretVerdict(file: SecretCheckedFile, bytes: Uint8Array, output?: ReadOutput): string | undefined {
  return secretVerdictOnBytes(file, bytes) ?? (output === undefined ? undefined : secretVerdictOnReading(file, output));
}
