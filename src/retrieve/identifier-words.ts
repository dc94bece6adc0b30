import { identifierParts } from "./query-terms.js";

const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/**
 * The words an identifier is searched by: itself joined (`parse_config` →
 * `parseconfig`) and each of its parts; a one-word identifier is itself.
 */
export function identifierWords(identifier: string): string[] {
  const parts = identifierParts(identifier);
  return parts.length > 1 ? [parts.join(""), ...parts] : parts;
}

/**
 * Text made searchable for code: every identifier is written as its joined
 * form followed by its parts, so `parseConfigFile`, `parse_config_file` and
 * "parse config file" all meet. Anything else is kept as is.
 */
export function searchableCode(text: string): string {
  return text.replace(IDENTIFIER, (word) => {
    const words = identifierWords(word);
    return words.length > 1 ? words.join(" ") : word;
  });
}
