/**
 * Recognises licence and copyright notices: the paragraphs that open
 * thousands of source files and documents word for word. Readers keep such
 * a paragraph as a faction (it is part of the file) but cut no cells from
 * it, so one notice repeated across a project does not become thousands of
 * claims. Only the start of a paragraph is tested: a notice opens with one
 * of a few fixed phrases, while prose that merely mentions a licence does
 * not.
 */
import { collapseWhitespace } from "./sentences.js";

/** Openings of notices, tested against the paragraph with comment markers removed. */
const NOTICE_OPENINGS: readonly RegExp[] = [
  /^spdx-(?:license-identifier|filecopyrighttext)\s*:/i,
  /^(?:copyright\s*(?:\(c\)|c?©)?|\(c\)|©)\s*(?:\d{4}|by\s)/i,
  /^(?:this (?:\w+ )?is )?licensed (?:under|to) (?:the )?(?:apache|mit|bsd|gnu|mozilla|eclipse|isc|creative commons|cc[- ]by)/i,
  /^licensed to the apache software foundation/i,
  /^permission is hereby granted,? free of charge/i,
  /^permission to use, copy, modify,? and(?:\/or)? distribute this software/i,
  /^the above copyright notice and this permission notice/i,
  /^the software is provided "?as is"?/i,
  /^this (?:program|library|file|software) is free software/i,
  /^this program is distributed in the hope that it will be useful/i,
  /^you should have received a copy of the gnu/i,
  /^this source code form is subject to the terms of the mozilla public license/i,
  /^redistribution and use in source and binary forms/i,
  /^unless required by applicable law or agreed to in writing/i,
  /^you may obtain a copy of the license at/i,
  /^all rights reserved\.?$/i,
];

/**
 * Longest paragraph taken for a notice. The longest common notices (MIT,
 * BSD-3) run to about 1,500 characters; a longer block that happens to
 * open like one is more likely a whole page of text run together.
 */
const MAX_NOTICE_CHARS = 3_000;

/** Comment markers that may open each line of a notice copied from source. */
const COMMENT_MARKER = /^\s*(?:<!--|-->|\/\*+|\*+\/?|\/\/+|#+|;+|--+|%+|rem\s)\s?/gim;

/** Whether `text` (one paragraph) is a licence or copyright notice. */
export function isBoilerplate(text: string): boolean {
  if (text.length > MAX_NOTICE_CHARS * 2) return false;
  const plain = collapseWhitespace(text.replace(COMMENT_MARKER, " ")).replace(/^["'“]+/, "");
  if (plain.length === 0 || plain.length > MAX_NOTICE_CHARS) return false;
  return NOTICE_OPENINGS.some((opening) => opening.test(plain));
}
