// Documented size limits, mirrored from src/common/limits.h and checked in JS before any call.

/** Largest text argument, in UTF-8 bytes (256 MiB). */
export const MAX_TEXT_BYTES = 256 * 1024 * 1024;
/** Most custom abbreviations a SentenceSplitter accepts. */
export const MAX_ABBREVIATIONS = 100000;
/** Longest single abbreviation, in UTF-8 bytes. */
export const MAX_ABBREVIATION_BYTES = 64;
